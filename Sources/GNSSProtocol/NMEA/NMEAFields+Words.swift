/// The number fields read eight bytes at a time: the usual shapes (`12.5`, `-3`, `4807.038`, `01131.000`) without a
/// branch per byte, each with the value the byte-by-byte reading gives; `nil` leaves any other shape to it.
extension NMEAFields {
    /// `double` for a field of at most eight bytes after its sign, all digits but for at most one point, with a
    /// digit: the same value as ``parseDouble(_:_:_:)``, or `nil` for any other field.
    @inline(__always)
    func wordDouble(_ s: Int, _ e: Int) -> Double? {
        // The eight bytes that end the field, read from `base + e - 8`: at or after the sentence's `$` (e >= 7).
        guard s < e, e >= 7 else { return nil }
        let (k, negative) = Self.skipSign(base, s)
        let n = e &- k
        guard n >= 1, n <= 8 else { return nil }
        // The field's bytes from byte 0 up.
        let f = NMEAWord.load(base + (e &- 8)) &>> UInt64(truncatingIfNeeded: 64 &- 8 &* n)
        let inField = NMEAWord.lowBytes(n)
        let points = NMEAWord.bytes(f, equalTo: 0x2E) & inField
        guard NMEAWord.nonDigitBytes(f) & inField & ~points == 0, points & (points &- 1) == 0 else { return nil }
        var digits = f
        var count = n
        var fractionDigits = 0
        if points != 0 {
            // The digits after the point moved down over it.
            let d = points.trailingZeroBitCount &>> 3
            count &-= 1
            guard count > 0 else { return nil }
            fractionDigits = count &- d
            let below = NMEAWord.lowBytes(d) & (d == 0 ? 0 : ~0)
            digits = (f & below) | ((f >> UInt64(8 &* (d &+ 1))) << UInt64(8 &* d))
        }
        let value = Double(NMEAWord.digitsValue(digits, count))
        let scaled = fractionDigits > 0 ? value / Self.powersOfTen[fractionDigits] : value
        return negative ? -scaled : scaled
    }

    /// `degreesMinutes` for a field of eight bytes or more with one to seven digits before its point and one to
    /// eight after it: the same value, or `nil` for any other field.
    @inline(__always)
    func wordDegreesMinutes(_ s: Int, _ e: Int) -> Double? {
        guard e &- s >= 8 else { return nil }
        // Its first eight bytes and its last eight, both inside it.
        let head = NMEAWord.load(base + s)
        let points = NMEAWord.bytes(head, equalTo: 0x2E)
        guard points != 0 else { return nil }
        let d = points.trailingZeroBitCount &>> 3
        let fractionDigits = e &- s &- d &- 1
        guard d >= 1, fractionDigits >= 1, fractionDigits <= 8,
            NMEAWord.nonDigitBytes(head) & NMEAWord.lowBytes(d) == 0
        else { return nil }
        let tail =
            NMEAWord.load(base + (e &- 8)) &>> UInt64(truncatingIfNeeded: 64 &- 8 &* fractionDigits)
        guard NMEAWord.nonDigitBytes(tail) & NMEAWord.lowBytes(fractionDigits) == 0 else { return nil }
        let whole = Int(truncatingIfNeeded: NMEAWord.digitsValue(head & NMEAWord.lowBytes(d), d))
        let degrees = whole / 100
        let minutes = whole - degrees * 40
        let fraction =
            Double(NMEAWord.digitsValue(tail, fractionDigits)) / Self.powersOfTen[fractionDigits]
        return (Double(minutes) + fraction) * (1.0 / 60.0)
    }
}
