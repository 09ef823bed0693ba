extension GPSDReportReader {
    /// Skips JSON whitespace.
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Takes `byte` after whitespace; `false`, taking nothing, when another byte comes.
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// A member name and its colon: the range of the name's bytes.
    mutating func key() -> Range<Int>? {
        guard let name = string(), take(UInt8(ascii: ":")) else { return nil }
        return name
    }

    /// A member name and its colon: the name and the range of its bytes.
    ///
    /// A name of at most 7 bytes written without whitespace, as gpsd writes them, is read with one 8-byte load after
    /// its opening quote: the first byte that is a quote, or cannot be in a name as this reader takes names (below
    /// 0x20, `\`, 0x7F and above), is found in the word at once, and the bytes before it are the name's code.
    /// Any other name goes through ``key()``.
    @inline(__always)
    mutating func member() -> (name: Name, range: Range<Int>)? {
        let base = bytes.baseAddress!
        let start = position &+ 1
        if start &+ 9 <= bytes.count, base[position] == UInt8(ascii: "\"") {
            let word = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self).littleEndian
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            // Per byte, its high bit set when the byte is zero (after the XOR) or below 0x20; exact for the lowest
            // byte that sets it, which is all that is read.
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let delete = word ^ (ones &* 0x7F)
            let stops =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((delete &- ones) & ~delete)
                | ((word &- ones &* 0x20) & ~word) | word
            let first = (stops & highs).trailingZeroBitCount
            if first < 64 {
                let length = first >> 3
                let end = start &+ length
                // The stop is a quote and a colon follows: the fast path's name.
                if base[end] == UInt8(ascii: "\""), base[end &+ 1] == UInt8(ascii: ":") {
                    position = end &+ 2
                    let code = length == 0 ? 0 : word & (UInt64.max &>> UInt64(64 &- length &* 8))
                    return (Name(code: code), start..<end)
                }
            }
        }
        guard let range = key() else { return nil }
        return (Name(range, in: bytes), range)
    }

    /// A string of printable ASCII without escapes, after whitespace: the range of its bytes.
    mutating func string() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let base = bytes.baseAddress!
        let start = position
        var at = position
        while at < bytes.count {
            let byte = base[at]
            if byte == UInt8(ascii: "\"") {
                position = at + 1
                return start..<at
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            at += 1
        }
        return nil
    }

    /// A string value, as a `String`.
    mutating func text() -> String? {
        guard let range = string() else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// A string value that is an ISO 8601 time.
    mutating func time() -> GNSSTime? {
        guard let range = string() else { return nil }
        return GNSSTime(iso8601UTF8: UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// `true` or `false`.
    mutating func boolean() -> Bool? {
        skipWhitespace()
        let base = bytes.baseAddress!
        if position &+ 5 <= bytes.count {
            let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt32.self).littleEndian
            if word == 0x6575_7274 {  // "true"
                position &+= 4
                return true
            }
            if word == 0x736C_6166 && base[position &+ 4] == UInt8(ascii: "e") {  // "fals", "e"
                position &+= 5
                return false
            }
            return nil
        }
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// Takes `word` after whitespace.
    private mutating func literal(_ word: StaticString) -> Bool {
        skipWhitespace()
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { return false }
        position += count
        return true
    }

    /// A number that is a whole number within `Int`, checked as the general reader checks it.
    ///
    /// Digits without a fraction or an exponent, at most 15 and not starting with 0, are read straight into an
    /// `Int` (exact, as `Double(String)` would be); any other number goes through ``number()``.
    mutating func integer() -> Int? {
        skipWhitespace()
        if position < bytes.count {
            // Reads stay in bounds: `message` checked that the line ends with `}`, which no number holds.
            let base = bytes.baseAddress!
            var at = position
            let negative = base[at] == UInt8(ascii: "-")
            if negative { at &+= 1 }
            let first = base[at] &- 48
            if first &- 1 < 9 {
                var value = Int(first)
                var digits = 1
                at &+= 1
                while true {
                    let next = base[at] &- 48
                    if next > 9 || digits == 15 { break }
                    value = value &* 10 &+ Int(next)
                    digits &+= 1
                    at &+= 1
                }
                let after = base[at]
                if after &- 48 > 9, after != UInt8(ascii: "."), after | 0x20 != UInt8(ascii: "e") {
                    position = at
                    return negative ? -value : value
                }
            }
        }
        guard let value = number(), value > -9.0e18, value < 9.0e18, Double(Int(value)) == value else { return nil }
        return Int(value)
    }

    /// A JSON number, converted exactly as `Double(String)` converts it: at most 15 significant digits and a
    /// decimal exponent within ±22, so that the digits and the power of ten are both exact doubles and one
    /// multiplication or division rounds once (Clinger's fast path). Anything else gives up.
    mutating func number() -> Double? {
        skipWhitespace()
        guard position < bytes.count else { return nil }
        // Every read below follows a byte that is a digit, a sign, a point or an exponent's `e`, so it is in bounds:
        // `message` checked that the line ends with `}` (and whitespace).
        let base = bytes.baseAddress!
        var at = position
        let negative = base[at] == UInt8(ascii: "-")
        if negative { at &+= 1 }
        let first = base[at] &- 48
        guard first <= 9 else { return nil }
        at &+= 1
        var significand = UInt64(first)
        var significantDigits = first == 0 ? 0 : 1
        var exponent = 0
        if first != 0 {
            while true {
                let next = base[at] &- 48
                if next > 9 { break }
                guard significantDigits < 15 else { return nil }
                significand = significand &* 10 &+ UInt64(next)
                significantDigits &+= 1
                at &+= 1
            }
        }
        if base[at] == UInt8(ascii: ".") {
            at &+= 1
            guard base[at] &- 48 <= 9 else { return nil }
            while true {
                let next = base[at] &- 48
                if next > 9 { break }
                if significantDigits > 0 || next != 0 {
                    guard significantDigits < 15 else { return nil }
                    significantDigits &+= 1
                }
                significand = significand &* 10 &+ UInt64(next)
                exponent &-= 1
                at &+= 1
            }
        }
        if base[at] | 0x20 == UInt8(ascii: "e") {
            at &+= 1
            var exponentNegative = false
            if base[at] == UInt8(ascii: "+") || base[at] == UInt8(ascii: "-") {
                exponentNegative = base[at] == UInt8(ascii: "-")
                at &+= 1
            }
            guard base[at] &- 48 <= 9 else { return nil }
            var written = 0
            while true {
                let next = base[at] &- 48
                if next > 9 { break }
                guard written < 1_000 else { return nil }
                written = written &* 10 &+ Int(next)
                at &+= 1
            }
            exponent += exponentNegative ? -written : written
        }
        position = at
        guard exponent >= -22, exponent <= 22 else { return significand == 0 ? (negative ? -0.0 : 0) : nil }
        let magnitude =
            exponent >= 0
            ? Double(significand) * Self.powerOfTen(exponent) : Double(significand) / Self.powerOfTen(-exponent)
        return negative ? -magnitude : magnitude
    }

    /// 10^`exponent` for 0...22, each exact in a `Double`.
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: return 1e0
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        default: return 1e22
        }
    }

    /// Skips one JSON value of a member the reader does not decode: a scalar, an empty object, or an array of
    /// such values nested at most 8 deep; `false` for anything else.
    mutating func skipValue(depth: Int) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { return false }
        switch bytes[position] {
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "{"):
            // Only an empty object: the members of another would need the check for repeated names.
            position += 1
            return take(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            guard depth < 8 else { return false }
            position += 1
            if take(UInt8(ascii: "]")) { return true }
            repeat {
                guard skipValue(depth: depth + 1) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]"))
        default: return number() != nil
        }
    }
}
