/// For each set of bytes of an eight-byte word that are commas (bit `i` set for byte `i`), where they are: what
/// ``NMEAWord/scanLine(_:available:limit:starts:places:)`` records for a word with one store instead of a loop per
/// comma.
enum CommaPlaces {
    /// Entries 0..<256: for a set `b`, the indexes of its bytes in ascending order, one per byte from the lowest,
    /// the bytes past the last index 0. Then 32 entries whose 256 bytes are each set's count of bytes. One array, so
    /// that the sentence decoder keeps one and lends its storage to the scan without retaining anything per line.
    static let table: [UInt64] = {
        var table = (0..<256).map { b in
            var packed: UInt64 = 0
            var shift: UInt64 = 0
            for i in 0..<8 where b & (1 << i) != 0 {
                packed |= UInt64(i) << shift
                shift += 8
            }
            return packed
        }
        for word in 0..<32 {
            var counts: UInt64 = 0
            for byte in 0..<8 { counts |= UInt64((word * 8 + byte).nonzeroBitCount) << (8 * byte) }
            table.append(counts)
        }
        return table
    }()

    /// The places of set `bits` (0...255) in `table`'s storage at `t`.
    @inline(__always)
    static func places(_ t: UnsafePointer<UInt64>, _ bits: Int) -> UInt64 { t[bits] }

    /// The count of set `bits` (0...255) in `table`'s storage at `t`.
    @inline(__always)
    static func count(_ t: UnsafePointer<UInt64>, _ bits: Int) -> Int {
        Int(UnsafeRawPointer(t + 256).load(fromByteOffset: bits, as: UInt8.self))
    }
}
