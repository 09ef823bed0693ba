#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A latitude's reduced latitude U on the WGS84 ellipsoid (`tan U = (1 - f) tan φ`), as its sine and cosine: the
/// part of Vincenty's formula (``Geodesic``) that depends on one position alone.
struct ReducedLatitude: Sendable {
    /// The geodetic latitude, in degrees.
    let latitude: Double
    /// sin U.
    let sine: Double
    /// cos U.
    let cosine: Double

    /// The reduced latitude of `latitude` (degrees), computed as gpsd's `earth_distance_and_bearings` computes it.
    init(_ latitude: Double) {
        self.latitude = latitude
        let reduced = atan((1 - Geodesic.flattening) * tan(latitude * (Double.pi / 180)))
        sine = sin(reduced)
        cosine = cos(reduced)
    }
}
