extension LineBuffer {
    /// `,"name":value` with one decimal, as ``number(_:_:_:_:)`` with 1 writes it, when present and finite: the
    /// satellites' elevations, azimuths and signal strengths, inlined where they are written. The caller has
    /// reserved the length of `key` plus 40 bytes (a satellite reserves for all its members at once).
    @inline(__always)
    mutating func tenths(_ key: StaticString, _ value: Double?) {
        guard let value, value.isFinite else { return }
        literal(key)
        // A whole number below 1000 (NMEA's elevations, azimuths and signal strengths are): its digits and ".0".
        if value >= 0, value < 1_000, let whole = UInt64(exactly: value) {
            unsigned(whole)
            byte(0x2E)
            byte(0x30)
            return
        }
        let scaled = abs(value) * 10
        guard scaled < 1e15 else { return fixed(value, 1) }
        // As `fixed` rounds: half away from zero, the fraction `scaled - Double(truncated)` being exact.
        let truncated = Int(scaled)
        let units = scaled - Double(truncated) >= 0.5 ? truncated &+ 1 : truncated
        if value < 0 && units != 0 { byte(0x2D) }
        let (whole, tenth) = units.quotientAndRemainder(dividingBy: 10)
        unsigned(UInt64(truncatingIfNeeded: whole))
        byte(0x2E)
        byte(0x30 &+ UInt8(truncatingIfNeeded: tenth))
    }

    /// At most 20 digits, written two at a time.
    @inline(__always)
    mutating func unsigned(_ value: UInt64) {
        if value < 10 {
            byte(0x30 &+ UInt8(truncatingIfNeeded: value))
            return
        }
        // Counted by comparisons, four digits per division: the whole parts written are mostly below 10,000.
        var digits = 1
        var t = value
        while t >= 10_000 {
            t /= 10_000
            digits &+= 4
        }
        if t >= 100 {
            digits &+= t >= 1_000 ? 3 : 2
        } else if t >= 10 {
            digits &+= 1
        }
        digitsRightToLeft(value, digits)
        count &+= digits
    }

    /// `value` (0...99) as two digits.
    @inline(__always)
    mutating func pair(_ value: Int) {
        storePair(UInt64(truncatingIfNeeded: value), at: count)
        count &+= 2
    }

    /// "00" to "99", two bytes each: the digits of `n` are the two bytes at `2 * n`.
    @inline(__always)
    private static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// The two digits of `value` (0...99) at `base + offset`.
    @inline(__always)
    private func storePair(_ value: UInt64, at offset: Int) {
        // In bounds: `value` < 100, so the two bytes read are within the 200 of `digitPairs`.
        let digits = UnsafeRawPointer(Self.digitPairs.utf8Start + Int(truncatingIfNeeded: value &* 2))
            .loadUnaligned(as: UInt16.self)
        UnsafeMutableRawPointer(base + offset).storeBytes(of: digits, as: UInt16.self)
    }

    /// The last `digits` digits of `value`, zero-padded, at `count ..< count + digits`; `count` is left as it was.
    @inline(__always)
    func digitsRightToLeft(_ value: UInt64, _ digits: Int) {
        var k = count &+ digits
        var v = value
        while k &- count >= 2 {
            let (rest, pair) = v.quotientAndRemainder(dividingBy: 100)
            k &-= 2
            storePair(pair, at: k)
            v = rest
        }
        if k > count { base[count] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10) }
    }

    /// At most 20 bytes.
    @inline(__always)
    mutating func int(_ value: Int) {
        if value < 0 {
            byte(0x2D)
            unsigned(UInt64(value.magnitude))
        } else {
            unsigned(UInt64(value))
        }
    }

    /// `value` as C's `%.Nf` with N = `decimals` (0...12): at most 1 + 19 + 1 + 12 = 33 bytes.
    ///
    /// The magnitude times 10^N is rounded half away from zero to a whole number of units, whose digits are then
    /// written right to left with the point N digits from the end (zeros in front when it has fewer).
    @inline(__always)
    mutating func fixed(_ value: Double, _ decimals: Int) {
        guard value.isFinite else { return }
        let d = max(0, min(decimals, 12))
        let magnitude = abs(value)
        let scaled = magnitude * Self.powerOfTen(d)
        guard scaled < 9.0e18 else {
            // Beyond 64-bit fixed point: no real report has such numbers; write the integer part's magnitude.
            if value < 0 { byte(0x2D) }
            unsigned(UInt64(min(magnitude, 9.0e18)))
            return
        }
        // Rounding half away from zero: `scaled - Double(units)` is exact, being the fraction of `scaled`.
        let truncated = Int64(scaled)
        var units = UInt64(truncatingIfNeeded: truncated)
        if scaled - Double(truncated) >= 0.5 { units &+= 1 }
        if value < 0 && units != 0 { byte(0x2D) }
        guard d > 0 else {
            unsigned(units)
            return
        }
        let (whole, fraction) = Self.split(units, d)
        unsigned(whole)
        byte(0x2E)
        digitsRightToLeft(fraction, d)
        count &+= d
    }

    /// `units` divided by 10^`decimals` (1...12), quotient and remainder, each divisor a constant.
    @inline(__always)
    private static func split(_ units: UInt64, _ decimals: Int) -> (UInt64, UInt64) {
        switch decimals {
        case 1: units.quotientAndRemainder(dividingBy: 10)
        case 2: units.quotientAndRemainder(dividingBy: 100)
        case 3: units.quotientAndRemainder(dividingBy: 1_000)
        case 4: units.quotientAndRemainder(dividingBy: 10_000)
        case 5: units.quotientAndRemainder(dividingBy: 100_000)
        case 6: units.quotientAndRemainder(dividingBy: 1_000_000)
        case 7: units.quotientAndRemainder(dividingBy: 10_000_000)
        case 8: units.quotientAndRemainder(dividingBy: 100_000_000)
        case 9: units.quotientAndRemainder(dividingBy: 1_000_000_000)
        case 10: units.quotientAndRemainder(dividingBy: 10_000_000_000)
        case 11: units.quotientAndRemainder(dividingBy: 100_000_000_000)
        default: units.quotientAndRemainder(dividingBy: 1_000_000_000_000)
        }
    }

    /// 10^`exponent` for 0...12, each exact in a `Double`.
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        default: 1e12
        }
    }
}
