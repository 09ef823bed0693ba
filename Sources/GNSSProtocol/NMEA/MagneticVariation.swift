/// The magnetic variation gpsd puts in a fix whose receiver sends none, and from which it computes `magtrack`:
/// gpsd's `mag_var()`.
///
/// gpsd interpolates a table of WMM2015 declinations on a 5-degree grid (``hundredthsOfDegree``, generated from
/// gpsd 3.22's `gpsd/geoid.c` by `scripts/generate-geoid-tables`); the value is gpsd's, to the last bit, not the
/// current World Magnetic Model's.
enum MagneticVariation {
    /// The magnetic variation (declination) in degrees, east positive, at a latitude and longitude in degrees, as
    /// gpsd 3.22 computes it: 0 where gpsd gives 0 (a coordinate that is not finite or is outside the grid, see
    /// ``FiveDegreeGrid``).
    @inline(__always)
    static func degrees(latitude: Double, longitude: Double) -> Double {
        FiveDegreeGrid.value(in: hundredthsOfDegree, latitude: latitude, longitude: longitude) / 100
    }
}
