/// The kind of fix a receiver reports, numbered as gpsd's TPV `mode`.
public enum FixMode: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nothing is known yet (gpsd mode 0).
    case unknown = 0
    /// The receiver reports no valid position (gpsd mode 1).
    case noFix = 1
    /// Latitude and longitude are valid, altitude is not (gpsd mode 2).
    case twoD = 2
    /// Latitude, longitude and altitude are valid (gpsd mode 3).
    case threeD = 3

    /// Orders modes by quality: `unknown < noFix < twoD < threeD`.
    public static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `"unknown"`, `"no fix"`, `"2D"` or `"3D"`.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .noFix: "no fix"
        case .twoD: "2D"
        case .threeD: "3D"
        }
    }

    /// Whether the fix carries a usable horizontal position.
    public var hasPosition: Bool { self >= .twoD }
}
