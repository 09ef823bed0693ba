/// The geoid separation gpsd puts in a fix whose receiver sends none: gpsd's `wgs84_separation()`.
///
/// gpsd interpolates a table of EGM2008 separations on a 5-degree grid (``separationCentimetres``, generated from
/// gpsd 3.22's `gpsd/geoid.c` by `scripts/generate-geoid-tables`), so the value can differ from the EGM2008 model
/// itself by metres; it is what gpsd reports, to the last bit.
enum Geoid {
    /// The height of the geoid (mean sea level) above the WGS84 ellipsoid, in metres, at a latitude and longitude
    /// in degrees, as gpsd 3.22 computes it: 0 where gpsd gives 0 (a coordinate that is not finite or is outside
    /// the grid, see ``FiveDegreeGrid``).
    @inline(__always)
    static func separation(latitude: Double, longitude: Double) -> Double {
        FiveDegreeGrid.value(in: separationCentimetres, latitude: latitude, longitude: longitude) / 100
    }
}
