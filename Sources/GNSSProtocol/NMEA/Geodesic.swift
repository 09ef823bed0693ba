#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#else
    #error("GNSSProtocol needs the C math library: Glibc or Darwin")
#endif

/// Distances on the WGS84 ellipsoid, computed as gpsd computes them.
enum Geodesic {
    /// The WGS84 semi-major axis (equatorial radius), in metres.
    static let semiMajorAxis = 6_378_137.0
    /// The WGS84 flattening.
    static let flattening = 1 / 298.257_223_563
    /// The WGS84 semi-minor axis (polar radius), in metres.
    static let semiMinorAxis = semiMajorAxis * (1 - flattening)

    /// The distance in metres between two positions given as (latitude, longitude) in degrees, by Vincenty's
    /// inverse formula iterated to 1e-12 rad, at most 100 times; `nil` when it does not converge (nearly antipodal
    /// points), where gpsd reports no speed.
    ///
    /// The names follow Vincenty (1975): U is the reduced latitude, λ the longitude difference on the auxiliary
    /// sphere, σ the angular distance, α the azimuth of the geodesic at the equator, σm the midpoint's angle.
    static func distance(from start: (Double, Double), to end: (Double, Double)) -> Double? {
        distance(from: ReducedLatitude(start.0), start.1, to: ReducedLatitude(end.0), end.1)
    }

    /// The distance in metres between the positions at reduced latitudes `u1` and `u2` and longitudes `longitude1`
    /// and `longitude2` (degrees): ``distance(from:to:)`` with each position's own part computed beforehand, so that
    /// a position shared by two calls is computed once. The result is the same to the bit.
    static func distance(
        from u1: ReducedLatitude, _ longitude1: Double, to u2: ReducedLatitude, _ longitude2: Double
    ) -> Double? {
        let flattening = Self.flattening
        let longitudeDifference = (longitude2 - longitude1) * (Double.pi / 180)
        let sinU1 = u1.sine
        let cosU1 = u1.cosine
        let sinU2 = u2.sine
        let cosU2 = u2.cosine
        var lambda = longitudeDifference
        var sinSigma = 0.0
        var cosSigma = 0.0
        var sigma = 0.0
        var cosSqAlpha = 0.0
        var cos2SigmaM = 0.0
        var iterationsLeft = 100
        while true {
            let sinLambda = sin(lambda)
            let cosLambda = cos(lambda)
            let eastComponent = cosU2 * sinLambda
            let northComponent = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (eastComponent * eastComponent + northComponent * northComponent).squareRoot()
            if sinSigma == 0 { return 0 }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSqAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSqAlpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha
            let correction = flattening / 16 * cosSqAlpha * (4 + flattening * (4 - 3 * cosSqAlpha))
            let previousLambda = lambda
            lambda =
                longitudeDifference + (1 - correction) * flattening * sinAlpha
                * (sigma + correction * sinSigma
                    * (cos2SigmaM + correction * cosSigma * (2 * cos2SigmaM * cos2SigmaM - 1)))
            iterationsLeft -= 1
            if abs(lambda - previousLambda) <= 1e-12 { break }
            if iterationsLeft == 0 { return nil }
        }
        let a = semiMajorAxis
        let b = semiMinorAxis
        let uSquared = cosSqAlpha * (a * a - b * b) / (b * b)
        let seriesA = 1 + uSquared / 16_384 * (4_096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
        let seriesB = uSquared / 1_024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        let deltaSigma =
            seriesB * sinSigma
            * (cos2SigmaM + seriesB / 4
                * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - seriesB / 6 * cos2SigmaM
                    * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * seriesA * (sigma - deltaSigma)
    }
}
