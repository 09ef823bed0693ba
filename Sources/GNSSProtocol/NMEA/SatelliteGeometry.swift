#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The dilutions of precision of a set of used satellites, computed from their azimuths and elevations as gpsd's
/// `fill_dop()` computes them (`gpsd/libgpsd_core.c`, with `matrix_invert()` of `gpsd/matrix.c`).
///
/// Each used satellite with a PRN of at least 1, an azimuth in 0...359 and an elevation within ±90 degrees gives a
/// line of sight (east, north, up, 1); the DOPs are the square roots of sums of the diagonal of the inverse of the
/// 4×4 product of those lines with themselves. Fewer than 4 such satellites, or a product whose determinant is
/// under 0.0001 in magnitude, give no DOPs, as in gpsd. The arithmetic follows gpsd's operation for operation, so
/// that the results print as gpsd prints them.
struct SatelliteGeometry: Sendable, Equatable {
    /// East (longitude) dilution of precision (SKY `xdop`).
    var xdop: Double
    /// North (latitude) dilution of precision (SKY `ydop`).
    var ydop: Double
    /// Horizontal dilution of precision (SKY `hdop`).
    var hdop: Double
    /// Vertical dilution of precision (SKY `vdop`).
    var vdop: Double
    /// Position dilution of precision (SKY `pdop`).
    var pdop: Double
    /// Time dilution of precision (SKY `tdop`).
    var tdop: Double
    /// Geometric dilution of precision (SKY `gdop`).
    var gdop: Double

    /// gpsd's `DEG_2_RAD`.
    private static let degreesToRadians = 0.0174532925199432957692369076848861271

    /// The sines and cosines of the whole degrees from -90 to 359 (index = degrees + 90), as
    /// ``sineAndCosine(degrees:)`` computes them: NMEA gives whole-degree angles, and a view's sines and cosines
    /// were most of its cost.
    private static let wholeDegrees: [(Double, Double)] = (-90...359).map { degrees in
        let radians = Double(degrees) * degreesToRadians
        return (sin(radians), cos(radians))
    }

    /// `sin` and `cos` of `degrees` × `DEG_2_RAD`, as gpsd computes them: from the table for a whole degree (the same
    /// arguments, so the same results), else computed.
    @inline(__always)
    private static func sineAndCosine(degrees: Double) -> (Double, Double) {
        if degrees >= -90, degrees <= 359, let whole = Int(exactly: degrees) { return wholeDegrees[whole + 90] }
        let radians = degrees * degreesToRadians
        return (sin(radians), cos(radians))
    }

    /// The DOPs of the used satellites among `satellites`, or `nil` where gpsd computes none. No allocation.
    init?(_ satellites: [Satellite]) {
        // The product of the lines of sight with themselves. gpsd sums over the satellites inside each (i, j) from
        // 0.0; summing satellite by satellite adds the same terms to each sum in the same order. The product is
        // symmetric (a * b == b * a), so its ten distinct sums are kept.
        var (p00, p01, p02, p03, p11, p12, p13, p22, p23, p33) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        var count = 0
        for satellite in satellites where satellite.used && satellite.prn >= 1 {
            guard let azimuth = satellite.azimuth, azimuth.isFinite, azimuth >= 0, azimuth <= 359,
                let elevation = satellite.elevation, elevation.isFinite, abs(elevation) <= 90
            else { continue }
            let (sinA, cosA) = Self.sineAndCosine(degrees: azimuth)
            let (sinE, cosE) = Self.sineAndCosine(degrees: elevation)
            let (x, y, z, w) = (sinA * cosE, cosA * cosE, sinE, 1.0)
            p00 += x * x
            p01 += x * y
            p02 += x * z
            p03 += x * w
            p11 += y * y
            p12 += y * z
            p13 += y * w
            p22 += z * z
            p23 += z * w
            p33 += w * w
            count += 1
        }
        guard count >= 4 else { return nil }
        let m = Matrix(
            m00: p00, m01: p01, m02: p02, m03: p03, m11: p11, m12: p12, m13: p13, m22: p22, m23: p23, m33: p33)
        guard let diagonal = m.inverseDiagonal() else { return nil }
        xdop = diagonal.0.squareRoot()
        ydop = diagonal.1.squareRoot()
        hdop = (diagonal.0 + diagonal.1).squareRoot()
        vdop = diagonal.2.squareRoot()
        pdop = (diagonal.0 + diagonal.1 + diagonal.2).squareRoot()
        tdop = diagonal.3.squareRoot()
        gdop = (diagonal.0 + diagonal.1 + diagonal.2 + diagonal.3).squareRoot()
    }
}

/// A symmetric 4×4 matrix, by its upper triangle.
private struct Matrix {
    let m00, m01, m02, m03, m11, m12, m13, m22, m23, m33: Double

    /// The diagonal of the inverse, by gpsd's `matrix_invert()`: its 2×2 and 3×3 subdeterminants (`minor2Rows12Columns01` is
    /// gpsd's `Det2_12_01`), in its order; `nil` when the determinant is under 0.0001 in magnitude.
    func inverseDiagonal() -> (Double, Double, Double, Double)? {
        let minor2Rows12Columns01 = m01 * m12 - m11 * m02
        let minor2Rows12Columns02 = m01 * m22 - m12 * m02
        let minor2Rows12Columns12 = m11 * m22 - m12 * m12
        let minor2Rows13Columns01 = m01 * m13 - m11 * m03
        let minor2Rows13Columns03 = m01 * m33 - m13 * m03
        let minor2Rows13Columns13 = m11 * m33 - m13 * m13
        let minor2Rows23Columns01 = m02 * m13 - m12 * m03
        let minor2Rows23Columns02 = m02 * m23 - m22 * m03
        let minor2Rows23Columns03 = m02 * m33 - m23 * m03
        let minor2Rows23Columns12 = m12 * m23 - m22 * m13
        let minor2Rows23Columns13 = m12 * m33 - m23 * m13
        let minor2Rows23Columns23 = m22 * m33 - m23 * m23
        let minor3Rows012Columns012 =
            m00 * minor2Rows12Columns12 - m01 * minor2Rows12Columns02 + m02 * minor2Rows12Columns01
        let minor3Rows013Columns013 =
            m00 * minor2Rows13Columns13 - m01 * minor2Rows13Columns03 + m03 * minor2Rows13Columns01
        let minor3Rows023Columns023 =
            m00 * minor2Rows23Columns23 - m02 * minor2Rows23Columns03 + m03 * minor2Rows23Columns02
        let minor3Rows123Columns012 =
            m01 * minor2Rows23Columns12 - m11 * minor2Rows23Columns02 + m12 * minor2Rows23Columns01
        let minor3Rows123Columns013 =
            m01 * minor2Rows23Columns13 - m11 * minor2Rows23Columns03 + m13 * minor2Rows23Columns01
        let minor3Rows123Columns023 =
            m01 * minor2Rows23Columns23 - m12 * minor2Rows23Columns03 + m13 * minor2Rows23Columns02
        let minor3Rows123Columns123 =
            m11 * minor2Rows23Columns23 - m12 * minor2Rows23Columns13 + m13 * minor2Rows23Columns12
        let det =
            m00 * minor3Rows123Columns123 - m01 * minor3Rows123Columns023 + m02 * minor3Rows123Columns013 - m03
            * minor3Rows123Columns012
        guard abs(det) >= 0.0001 else { return nil }
        return (
            minor3Rows123Columns123 / det, minor3Rows023Columns023 / det, minor3Rows013Columns013 / det,
            minor3Rows012Columns012 / det
        )
    }
}
