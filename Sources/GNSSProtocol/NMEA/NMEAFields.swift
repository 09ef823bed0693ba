/// The comma-separated fields of one framed sentence, read in place without copying.
///
/// Field 0 is the address (`GPGGA`); the checksum is not a field. Indexing past the last field yields an empty
/// field, as gpsd does, so that parsers can read optional trailing fields without counting.
struct NMEAFields {
    /// The first byte of the sentence body (just after `$`).
    let base: UnsafePointer<UInt8>
    /// Where each field starts; field `i` ends one byte (its comma) before field `i + 1` starts (a sentence is at
    /// most 102 bytes, a body below 256). Stack storage lent by the sentence decoder: reading it copies nothing,
    /// where an `InlineArray` property was copied whole for every subscript.
    private let starts: UnsafeMutablePointer<UInt8>
    /// The number of fields, address included.
    private(set) var count: Int
    /// The time of day (ms) in the time field of the sentence's type (``NMEASentenceType/timeField``), read once
    /// by the sentence decoder; `nil` for a type without one.
    var time: Int?

    /// The most fields kept; later ones read as empty.
    static let capacity = 48

    /// The fields of a body starting at `base`, split by ``NMEAWord/scanSentence(_:_:starts:)`` into `count`
    /// fields whose starts are in `starts`.
    @inline(__always)
    init(base: UnsafePointer<UInt8>, starts: UnsafeMutablePointer<UInt8>, count: Int) {
        self.base = base
        self.starts = starts
        self.count = count
    }

    @inline(__always) func range(_ i: Int) -> (Int, Int) {
        i < count ? (Int(starts[i]), Int(starts[i + 1]) - 1) : (0, 0)
    }

    /// The length of field `i` in bytes (0 when absent).
    @inline(__always) func length(_ i: Int) -> Int {
        let (s, e) = range(i)
        return e - s
    }

    /// Whether field `i` is empty or absent.
    @inline(__always) func isEmpty(_ i: Int) -> Bool { length(i) == 0 }

    /// The first byte of field `i`, or 0 when the field is empty.
    @inline(__always) func first(_ i: Int) -> UInt8 {
        let (s, e) = range(i)
        return s < e ? base[s] : 0
    }

    /// Byte `k` of field `i`; the caller checks `length(i)`.
    @inline(__always) func byte(_ i: Int, _ k: Int) -> UInt8 { base[Int(starts[i]) + k] }

    /// Field `i` as a decimal number (`-12.5`, `+3`, `.5`), or `nil` when empty or not a number.
    ///
    /// The result is correctly rounded for up to 15 significant digits, as `strtod` would give.
    func double(_ i: Int) -> Double? {
        let (s, e) = range(i)
        if let value = wordDouble(s, e) { return value }
        return NMEAFields.parseDouble(base, s, e)
    }

    /// Field `i` as a course in degrees, brought into [0, 360) as gpsd does (`720` is 0, `-90` is 270), or `nil`
    /// when empty or not a number.
    func course(_ i: Int) -> Double? {
        guard let degrees = double(i) else { return nil }
        let turn = degrees.truncatingRemainder(dividingBy: 360)
        let course = turn < 0 ? turn + 360 : turn
        return course < 360 ? course + 0 : 0
    }

    /// Field `i` as a non-negative or negative integer, or `nil` when empty or not an integer.
    @inline(__always)
    func int(_ i: Int) -> Int? {
        let (s, e) = range(i)
        guard s < e else { return nil }
        var (k, negative) = Self.skipSign(base, s)
        guard k < e, e - k <= 9 else { return nil }
        var v = 0
        while k < e {
            let d = Int(base[k]) &- 48
            guard d >= 0, d <= 9 else { return nil }
            v = v * 10 + d
            k += 1
        }
        return negative ? -v : v
    }

    /// Field `i` as a leading integer, ignoring what follows the digits (C's `atoi`); 0 when there is none.
    func leadingInt(_ i: Int) -> Int {
        let (s, e) = range(i)
        var k = s
        var v = 0
        while k < e, k - s < 9 {
            let d = Int(base[k]) &- 48
            guard d >= 0, d <= 9 else { break }
            v = v * 10 + d
            k += 1
        }
        return v
    }

    /// An NMEA angle `DDDMM.mmmm` in field `i` as degrees (unsigned), or `nil`; a decimal point is required.
    ///
    /// Mirrors gpsd's arithmetic (integer minutes, then fractional minutes, times 1/60) so results agree bit for bit.
    func degreesMinutes(_ i: Int) -> Double? {
        let (s, e) = range(i)
        return wordDegreesMinutes(s, e) ?? byteDegreesMinutes(s, e)
    }

    /// `degreesMinutes` of the bytes `base[s..<e]`, read one by one.
    func byteDegreesMinutes(_ s: Int, _ e: Int) -> Double? {
        guard s < e else { return nil }
        var k = s
        var whole = 0
        var digits = 0
        while k < e, base[k] != 0x2E {
            let d = Int(base[k]) &- 48
            guard d >= 0, d <= 9, digits < 9 else { return nil }
            whole = whole * 10 + d
            digits += 1
            k += 1
        }
        guard k < e else { return nil }
        let degrees = whole / 100
        let minutes = whole - degrees * 40
        let fraction: Double
        if e &- k <= 18 {
            // `.digits`, as `parseDouble` reads it when it is this short: every digit kept, then one division.
            var mantissa: UInt64 = 0
            var t = k &+ 1
            while t < e {
                let d = UInt64(base[t] &- 48)
                guard d <= 9 else { return nil }
                mantissa = mantissa &* 10 &+ d
                t &+= 1
            }
            let fractionDigits = e &- k &- 1
            guard fractionDigits > 0 else { return nil }
            fraction = Double(mantissa) / NMEAFields.powersOfTen[fractionDigits]
        } else {
            guard let long = NMEAFields.parseDouble(base, k, e) else { return nil }
            fraction = long
        }
        let fullMinutes = Double(minutes) + fraction
        return fullMinutes * (1.0 / 60.0)
    }

    /// A `hhmmss[.sss]` time in field `i` as milliseconds of the day, or `nil` when malformed.
    func timeOfDay(_ i: Int) -> Int? {
        let (s, e) = range(i)
        guard e - s >= 6 else { return nil }
        @inline(__always) func pair(_ k: Int) -> Int? {
            let a = Int(base[k]) &- 48
            let b = Int(base[k + 1]) &- 48
            guard a >= 0, a <= 9, b >= 0, b <= 9 else { return nil }
            return a * 10 + b
        }
        guard let hour = pair(s), let minute = pair(s + 2), let second = pair(s + 4), hour < 24,
            minute < 60,
            second < 61
        else { return nil }
        var ms = 0
        if e - s > 7, base[s + 6] == 0x2E {
            var scale = 100
            var k = s + 7
            while k < e {
                let d = Int(base[k]) &- 48
                guard d >= 0, d <= 9 else { break }
                ms += d * scale
                scale /= 10
                k += 1
            }
        }
        return ((hour * 60 + minute) * 60 + second) * 1_000 + ms
    }

    /// Exact powers of ten for correctly rounded conversion.
    static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
        1e18,
    ]

    /// Parses `digits[.digits]` in `base[s..<e]` when it is at most 18 bytes long: then every digit is kept (no
    /// more than 18 significant, fewer than 18 after the point), so `parseDouble`'s counting is not needed and the
    /// result is the same.
    @inline(__always)
    private static func parseShortDouble(_ base: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> Double? {
        var mantissa: UInt64 = 0
        var point = -1
        var k = s
        while k < e {
            let c = base[k]
            if c == 0x2E {
                if point >= 0 { return nil }
                point = k
            } else {
                let d = UInt64(c &- 48)
                guard d <= 9 else { return nil }
                mantissa = mantissa &* 10 &+ d
            }
            k &+= 1
        }
        let fractionDigits = point >= 0 ? e - point - 1 : 0
        guard e - s - (point >= 0 ? 1 : 0) > 0 else { return nil }
        let value = Double(mantissa)
        return fractionDigits > 0 ? value / powersOfTen[fractionDigits] : value
    }

    /// Where the number at `base[s]` starts after its sign (`+` or `-`, if any), and whether the sign was `-`.
    @inline(__always)
    static func skipSign(_ base: UnsafePointer<UInt8>, _ s: Int) -> (start: Int, negative: Bool) {
        let negative = base[s] == 0x2D
        return negative || base[s] == 0x2B ? (s + 1, negative) : (s, false)
    }

    /// Parses `[+-]digits[.digits]` in `base[s..<e]`.
    @inline(__always)
    static func parseDouble(_ base: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> Double? {
        guard s < e else { return nil }
        var (k, negative) = Self.skipSign(base, s)
        if e - k <= 18 {
            return parseShortDouble(base, k, e).map { negative ? -$0 : $0 }
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var fractionDigits = 0
        var digits = 0
        var dropped = 0
        // At most 18 significant digits, and at most 18 after the point (leading zeros of a fraction are not
        // significant, so `0.000…01` would otherwise run past `powersOfTen`); later digits are below a Double's
        // precision and are only checked. The integer part first, then the fraction, each in its own loop.
        while k < e {
            let d = UInt64(base[k] &- 48)
            if d > 9 { break }
            if significant < 18 {
                if mantissa != 0 || d != 0 { significant += 1 }
                mantissa = mantissa * 10 + d
            } else {
                dropped += 1
            }
            digits += 1
            k += 1
        }
        if k < e {
            guard base[k] == 0x2E else { return nil }
            k += 1
            while k < e {
                let d = UInt64(base[k] &- 48)
                guard d <= 9 else { return nil }
                if significant < 18, fractionDigits < 18 {
                    if mantissa != 0 || d != 0 { significant += 1 }
                    mantissa = mantissa * 10 + d
                    fractionDigits += 1
                }
                digits += 1
                k += 1
            }
        }
        guard digits > 0 else { return nil }
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= powersOfTen[fractionDigits] }
        if dropped > 0 {
            for _ in 0..<dropped { value *= 10 }
        }
        return negative ? -value : value
    }
}
