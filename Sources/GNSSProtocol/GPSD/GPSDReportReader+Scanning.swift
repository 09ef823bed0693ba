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
    mutating func integer() -> Int? {
        guard let value = number(), value > -9.0e18, value < 9.0e18, Double(Int(value)) == value else { return nil }
        return Int(value)
    }

    /// A JSON number, converted exactly as `Double(String)` converts it: at most 15 significant digits and a
    /// decimal exponent within ±22, so that the digits and the power of ten are both exact doubles and one
    /// multiplication or division rounds once (Clinger's fast path). Anything else gives up.
    mutating func number() -> Double? {
        skipWhitespace()
        let base = bytes.baseAddress!
        let end = bytes.count
        var at = position
        var negative = false
        if at < end, base[at] == UInt8(ascii: "-") {
            negative = true
            at += 1
        }
        guard at < end else { return nil }
        let first = base[at] &- 48
        guard first <= 9 else { return nil }
        at += 1
        var significand = UInt64(first)
        var significantDigits = first == 0 ? 0 : 1
        var exponent = 0
        if first != 0 {
            while at < end {
                let next = base[at] &- 48
                if next > 9 { break }
                guard significantDigits < 15 else { return nil }
                significand = significand &* 10 &+ UInt64(next)
                significantDigits += 1
                at += 1
            }
        }
        if at < end, base[at] == UInt8(ascii: ".") {
            at += 1
            guard at < end, base[at] &- 48 <= 9 else { return nil }
            while at < end {
                let next = base[at] &- 48
                if next > 9 { break }
                if significantDigits > 0 || next != 0 {
                    guard significantDigits < 15 else { return nil }
                    significantDigits += 1
                }
                significand = significand &* 10 &+ UInt64(next)
                exponent -= 1
                at += 1
            }
        }
        if at < end, base[at] | 0x20 == UInt8(ascii: "e") {
            at += 1
            var exponentNegative = false
            if at < end, base[at] == UInt8(ascii: "+") || base[at] == UInt8(ascii: "-") {
                exponentNegative = base[at] == UInt8(ascii: "-")
                at += 1
            }
            guard at < end, base[at] &- 48 <= 9 else { return nil }
            var written = 0
            while at < end {
                let next = base[at] &- 48
                if next > 9 { break }
                guard written < 1_000 else { return nil }
                written = written * 10 + Int(next)
                at += 1
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
