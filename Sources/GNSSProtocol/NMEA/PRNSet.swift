/// A set of satellite PRNs, one bit each: ``NMEASatelliteNumbering/identify(_:talker:_:system:)`` gives PRNs from 1, most
/// below the 576 bits here. PRNs outside 0..<576 are never members and cannot be inserted.
struct PRNSet: Sendable {
    private var bits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
        0, 0, 0, 0, 0, 0, 0, 0, 0
    )

    /// Whether `prn` can be a member.
    @inline(__always)
    static func holds(_ prn: Int) -> Bool { prn >= 0 && prn < 576 }

    /// Whether `prn` is a member.
    @inline(__always)
    func contains(_ prn: Int) -> Bool {
        guard Self.holds(prn) else { return false }
        // In bounds: word prn >> 6 is at most 8 of the nine.
        let word = withUnsafeBytes(of: bits) { $0.load(fromByteOffset: (prn &>> 6) &* 8, as: UInt64.self) }
        return word & (1 &<< UInt64(prn & 63)) != 0
    }

    /// Adds `prn` when it can be a member.
    @inline(__always)
    mutating func insert(_ prn: Int) {
        guard Self.holds(prn) else { return }
        withUnsafeMutableBytes(of: &bits) { bits in
            // In bounds: word prn >> 6 is at most 8 of the nine.
            let offset = (prn &>> 6) &* 8
            let word = bits.load(fromByteOffset: offset, as: UInt64.self)
            bits.storeBytes(of: word | 1 &<< UInt64(prn & 63), toByteOffset: offset, as: UInt64.self)
        }
    }

    /// Removes every member.
    @inline(__always)
    mutating func removeAll() { bits = (0, 0, 0, 0, 0, 0, 0, 0, 0) }
}
