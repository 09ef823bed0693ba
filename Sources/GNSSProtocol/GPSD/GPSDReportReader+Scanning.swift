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
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return start..<(position - 1)
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            position += 1
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
        var negative = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var significand: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        guard let first = digit() else { return nil }
        position += 1
        significand = UInt64(first)
        significantDigits = first == 0 ? 0 : 1
        if first != 0 {
            while let next = digit() {
                guard significantDigits < 15 else { return nil }
                significand = significand * 10 + UInt64(next)
                significantDigits += 1
                position += 1
            }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digit() != nil else { return nil }
            while let next = digit() {
                if significantDigits > 0 || next != 0 {
                    guard significantDigits < 15 else { return nil }
                    significantDigits += 1
                }
                significand = significand * 10 + UInt64(next)
                exponent -= 1
                position += 1
            }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            var exponentNegative = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            guard digit() != nil else { return nil }
            var written = 0
            while let next = digit() {
                guard written < 1_000 else { return nil }
                written = written * 10 + next
                position += 1
            }
            exponent += exponentNegative ? -written : written
        }
        let magnitude: Double
        if significand == 0 {
            magnitude = 0
        } else if exponent >= 0 {
            guard exponent <= 22 else { return nil }
            magnitude = Double(significand) * Self.powersOfTen[exponent]
        } else {
            guard exponent >= -22 else { return nil }
            magnitude = Double(significand) / Self.powersOfTen[-exponent]
        }
        return negative ? -magnitude : magnitude
    }

    /// The digit at the reader, if it is one.
    private func digit() -> Int? {
        guard position < bytes.count else { return nil }
        let value = Int(bytes[position]) &- 48
        return value >= 0 && value <= 9 ? value : nil
    }

    /// 10^0 through 10^22, each exact in a `Double`.
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var power = 1.0
        for _ in 0..<exponent { power *= 10 }
        return power
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
