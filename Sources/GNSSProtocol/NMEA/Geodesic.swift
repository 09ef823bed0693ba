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
        let flattening = Self.flattening
        let radians = Double.pi / 180
        let longitudeDifference = (end.1 - start.1) * radians
        let reducedLatitudeStart = atan((1 - flattening) * tan(start.0 * radians))
        let reducedLatitudeEnd = atan((1 - flattening) * tan(end.0 * radians))
        let sinU1 = sin(reducedLatitudeStart)
        let cosU1 = cos(reducedLatitudeStart)
        let sinU2 = sin(reducedLatitudeEnd)
        let cosU2 = cos(reducedLatitudeEnd)
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
