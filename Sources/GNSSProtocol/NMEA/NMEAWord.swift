/// Word-at-a-time byte tests for the NMEA hot loops: eight bytes per step instead of one.
///
/// Every mask is exact (no false positives from carries between bytes): the high bit of byte `k` of the result is
/// set when byte `k` of the word passes the test, and all other bits are clear. Words are loaded little-endian, so
/// `trailingZeroBitCount >> 3` of a mask is the index of the first byte that passes.
enum NMEAWord {
    /// `0x01` in every byte.
    static let ones: UInt64 = 0x0101_0101_0101_0101
    /// `0x7F` in every byte.
    static let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    /// `0x80` in every byte.
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `p`, first byte lowest.
    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// The bytes of `x` that are zero.
    @inline(__always)
    static func zeroBytes(_ x: UInt64) -> UInt64 {
        ~(((x & lows) &+ lows) | x | lows)
    }

    /// The bytes of `x` equal to `byte`.
    @inline(__always)
    static func bytes(_ x: UInt64, equalTo byte: UInt8) -> UInt64 {
        zeroBytes(x ^ (ones &* UInt64(byte)))
    }

    /// The bytes of `x` outside printable ASCII `0x20...0x7E`.
    @inline(__always)
    static func unprintableBytes(_ x: UInt64) -> UInt64 {
        // Below 0x20: adding 0x60 to the low seven bits leaves the high bit clear (no byte carries out).
        let below = ~((x & lows) &+ 0x6060_6060_6060_6060) & highs
        return (x & highs) | below | bytes(x, equalTo: 0x7F)
    }

    /// The XOR of the eight bytes of `x`.
    @inline(__always)
    static func xorOfBytes(_ x: UInt64) -> UInt8 {
        var a = x ^ (x >> 32)
        a ^= a >> 16
        a ^= a >> 8
        return UInt8(truncatingIfNeeded: a)
    }
}
