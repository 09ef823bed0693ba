/// gpsd's lookup in a table on a 5-degree grid over the whole Earth (`gpsd/geoid.c`): the bilinear interpolation,
/// edge handling and arithmetic of its `wgs84_separation` and `mag_var`, operation for operation, so that the
/// results are gpsd's to the last bit.
///
/// A table has 37 rows (latitudes -90, -85, ... 90) of 73 columns (longitudes -180, -175, ... 180), row-major.
/// A point in the cell whose lower corner is row `r`, column `c` is interpolated between rows `r` and `r + 1` and
/// columns `c` and `c + 1`; on the last row or column (latitude 90 to 95, longitude 180 to 185) between that row or
/// column and itself, which gpsd's `bilinear` treats as the special cases below. A latitude below -90 or from 95
/// up, a longitude below -180 or from 185 up, or a coordinate that is not finite, gives 0, as in gpsd.
enum FiveDegreeGrid {
    /// Latitudes in a table: -90 through 90.
    static let rows = 37
    /// Longitudes in a table: -180 through 180.
    static let columns = 73

    /// The value of `table` at a latitude and longitude in degrees, in the table's units (gpsd then divides by
    /// 100); 0 outside the grid as described above. No allocation: four reads and a few operations.
    @inline(__always)
    static func value(in table: [Int16], latitude: Double, longitude: Double) -> Double {
        guard latitude.isFinite, longitude.isFinite else { return 0 }
        // gpsd: ilat = (int)floor((90. + lat) / span), then the range check. Checking the floored value before it
        // becomes an Int returns 0 for every value out of range, where gpsd's (int) of a huge value gives INT_MIN.
        let rowFloor = ((90 + latitude) / 5).rounded(.down)
        let columnFloor = ((180 + longitude) / 5).rounded(.down)
        guard rowFloor >= 0, rowFloor < Double(rows), columnFloor >= 0, columnFloor < Double(columns) else {
            return 0
        }
        let row1 = Int(rowFloor)
        let column1 = Int(columnFloor)
        let row2 = row1 < rows - 1 ? row1 + 1 : row1
        let column2 = column1 < columns - 1 ? column1 + 1 : column1
        return bilinear(
            x1: column1 * 5 - 180, y1: row1 * 5 - 90, x2: column2 * 5 - 180, y2: row2 * 5 - 90,
            x: longitude, y: latitude,
            z11: Int(table[row1 * columns + column1]), z12: Int(table[row1 * columns + column2]),
            z21: Int(table[row2 * columns + column1]), z22: Int(table[row2 * columns + column2]))
    }

    /// gpsd's `bilinear()`: `z11` is at (x1, y1), `z12` at (x2, y1), `z21` at (x1, y2), `z22` at (x2, y2). The
    /// operations and their order are the C code's (integers converted to double where C converts them), so the
    /// rounding is the same.
    @inline(__always)
    private static func bilinear(
        x1: Int, y1: Int, x2: Int, y2: Int, x: Double, y: Double, z11: Int, z12: Int, z21: Int, z22: Int
    ) -> Double {
        let xx1 = x - Double(x1)
        let x2x = Double(x2) - x
        let yy1 = y - Double(y1)
        let y2y = Double(y2) - y
        if y1 == y2 {
            if x1 == x2 { return Double(z11) }
            return (Double(z22) * xx1 + Double(z11) * x2x) / Double(x2 - x1)
        } else if x1 == x2 {
            return (Double(z22) * yy1 + Double(z11) * y2y) / Double(y2 - y1)
        }
        let delta = (y2 - y1) * (x2 - x1)
        let sum = Double(z22) * yy1 * xx1 + Double(z12) * y2y * xx1 + Double(z21) * yy1 * x2x + Double(z11) * y2y * x2x
        return sum / Double(delta)
    }
}
