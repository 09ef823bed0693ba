/// Decimal digits eight bytes at a time, for the number fields.
extension NMEAWord {
    /// The bytes of `x` that are not ASCII digits.
    @inline(__always)
    static func nonDigitBytes(_ x: UInt64) -> UInt64 {
        // On the low seven bits no sum carries out of its byte: adding 0x46 sets the high bit from 0x3A up, adding
        // 0x50 leaves it clear below 0x30; `x` itself has it set from 0x80 up.
        let low = x & lows
        return ((low &+ 0x4646_4646_4646_4646) | ~(low &+ 0x5050_5050_5050_5050) | x) & highs
    }

    /// The bytes below byte `n` (1...8) of a word: a mask of its `n` lowest bytes.
    @inline(__always)
    static func lowBytes(_ n: Int) -> UInt64 { ~0 &>> UInt64(truncatingIfNeeded: 64 &- 8 &* n) }

    /// The value of the `n` (1...8) ASCII digits in the lowest bytes of `x`, the first digit lowest (the bytes above
    /// them are zero).
    @inline(__always)
    static func digitsValue(_ x: UInt64, _ n: Int) -> UInt64 {
        // Shifted up to eight digits with '0's before them, then combined in pairs, fours and eights (Lemire).
        let shift = UInt64(truncatingIfNeeded: 64 &- 8 &* n)
        var v = (x &<< shift) | (n == 8 ? 0 : 0x3030_3030_3030_3030 &>> UInt64(truncatingIfNeeded: 8 &* n))
        v &-= 0x3030_3030_3030_3030
        v = v &* 10 &+ (v &>> 8)
        v =
            ((v & 0x0000_00FF_0000_00FF) &* (100 &+ (1_000_000 &<< 32))
                &+ ((v &>> 16) & 0x0000_00FF_0000_00FF) &* (1 &+ (10_000 &<< 32))) &>> 32
        return v
    }
}
