/// The iterative JSON parser behind ``JSONValue/init(parsing:maximumDepth:)``.
///
/// Containers being filled live on an explicit stack, so the call depth stays constant whatever the input.
struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = max(0, maximumDepth)
    }

    private enum Container {
        case array([JSONValue])
        case object([JSONMember], pendingKey: String)
    }

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        var stack: [Container] = []
        nextValue: while true {
            skipWhitespace()
            var value: JSONValue
            switch try peek() {
            case UInt8(ascii: "{"):
                try checkDepth(stack.count)
                position += 1
                skipWhitespace()
                if try peek() == UInt8(ascii: "}") {
                    position += 1
                    value = .object([])
                } else {
                    stack.append(.object([], pendingKey: try parseKey()))
                    continue nextValue
                }
            case UInt8(ascii: "["):
                try checkDepth(stack.count)
                position += 1
                skipWhitespace()
                if try peek() == UInt8(ascii: "]") {
                    position += 1
                    value = .array([])
                } else {
                    stack.append(.array([]))
                    continue nextValue
                }
            default:
                value = try parseScalar()
            }
            // Attach the finished value to the innermost open container, closing containers as they end.
            while let container = stack.popLast() {
                skipWhitespace()
                switch container {
                case .array(var items):
                    items.append(value)
                    let next = try peek()
                    position += 1
                    if next == UInt8(ascii: ",") {
                        stack.append(.array(items))
                        continue nextValue
                    }
                    guard next == UInt8(ascii: "]") else { throw JSONError(.unexpectedByte(next), at: position - 1) }
                    value = .array(items)
                case .object(var members, let key):
                    members.append(JSONMember(key: key, value: value))
                    let next = try peek()
                    position += 1
                    if next == UInt8(ascii: ",") {
                        skipWhitespace()
                        let keyOffset = position
                        let newKey = try parseKey()
                        if members.contains(where: { $0.key == newKey }) {
                            throw JSONError(.duplicateKey(newKey), at: keyOffset)
                        }
                        stack.append(.object(members, pendingKey: newKey))
                        continue nextValue
                    }
                    guard next == UInt8(ascii: "}") else { throw JSONError(.unexpectedByte(next), at: position - 1) }
                    value = .object(members)
                }
            }
            skipWhitespace()
            guard position == bytes.count else { throw JSONError(.trailingData, at: position) }
            return value
        }
    }

    private func checkDepth(_ open: Int) throws(JSONError) {
        if open >= maximumDepth { throw JSONError(.tooDeep(limit: maximumDepth), at: position) }
    }

    private func peek() throws(JSONError) -> UInt8 {
        guard position < bytes.count else { throw JSONError(.unexpectedEnd, at: position) }
        return bytes[position]
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// A member name followed by its colon.
    private mutating func parseKey() throws(JSONError) -> String {
        let first = try peek()
        guard first == UInt8(ascii: "\"") else { throw JSONError(.unexpectedByte(first), at: position) }
        let key = try parseString()
        skipWhitespace()
        let colon = try peek()
        guard colon == UInt8(ascii: ":") else { throw JSONError(.unexpectedByte(colon), at: position) }
        position += 1
        return key
    }

    private mutating func parseScalar() throws(JSONError) -> JSONValue {
        let first = try peek()
        switch first {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw JSONError(.unexpectedByte(first), at: position)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            let actual = try peek()
            guard actual == byte else { throw JSONError(.unexpectedByte(actual), at: position) }
            position += 1
        }
    }

    private mutating func parseNumber() throws(JSONError) -> Double {
        let start = position
        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        func byte(_ at: Int) -> UInt8? { at < bytes.count ? bytes[at] : nil }
        if byte(position) == UInt8(ascii: "-") { position += 1 }
        guard let lead = byte(position), isDigit(lead) else { throw JSONError(.invalidNumber, at: position) }
        position += 1
        if lead != UInt8(ascii: "0") {
            while let b = byte(position), isDigit(b) { position += 1 }
        }
        if byte(position) == UInt8(ascii: ".") {
            position += 1
            guard let b = byte(position), isDigit(b) else { throw JSONError(.invalidNumber, at: position) }
            while let b = byte(position), isDigit(b) { position += 1 }
        }
        if byte(position) == UInt8(ascii: "e") || byte(position) == UInt8(ascii: "E") {
            position += 1
            if byte(position) == UInt8(ascii: "+") || byte(position) == UInt8(ascii: "-") { position += 1 }
            guard let b = byte(position), isDigit(b) else { throw JSONError(.invalidNumber, at: position) }
            while let b = byte(position), isDigit(b) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let value = Double(text) else { throw JSONError(.invalidNumber, at: start) }
        guard value.isFinite else { throw JSONError(.numberOutOfRange, at: start) }
        return value
    }

    /// A string starting at the opening quote; leaves `position` after the closing quote.
    private mutating func parseString() throws(JSONError) -> String {
        position += 1
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let b = bytes[position]
            if b == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<position])
                guard let s = String(validating: raw, as: UTF8.self) else {
                    throw JSONError(.invalidUTF8, at: start)
                }
                position += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw JSONError(.controlCharacterInString, at: position) }
            position += 1
        }
        guard position < bytes.count else { throw JSONError(.unexpectedEnd, at: position) }
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while true {
            let b = try peek()
            switch b {
            case UInt8(ascii: "\""):
                position += 1
                guard let s = String(validating: decoded, as: UTF8.self) else {
                    throw JSONError(.invalidUTF8, at: start)
                }
                return s
            case UInt8(ascii: "\\"):
                position += 1
                let escape = try peek()
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"): try appendUnicodeEscape(to: &decoded)
                default: throw JSONError(.invalidEscape, at: position - 2)
                }
            default:
                if b < 0x20 { throw JSONError(.controlCharacterInString, at: position) }
                decoded.append(b)
                position += 1
            }
        }
    }

    /// Decodes the four hex digits after `\u` (and a following low surrogate escape) as UTF-8.
    private mutating func appendUnicodeEscape(to decoded: inout [UInt8]) throws(JSONError) {
        let escapeStart = position - 2
        var code = try hex4(escapeStart)
        if (0xD800..<0xDC00).contains(code) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { throw JSONError(.invalidUnicodeEscape, at: escapeStart) }
            position += 2
            let low = try hex4(escapeStart)
            guard (0xDC00..<0xE000).contains(low) else { throw JSONError(.invalidUnicodeEscape, at: escapeStart) }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
            throw JSONError(.invalidUnicodeEscape, at: escapeStart)
        }
        guard let scalar = Unicode.Scalar(code) else { throw JSONError(.invalidUnicodeEscape, at: escapeStart) }
        UTF8.encode(scalar) { decoded.append($0) }
    }

    private mutating func hex4(_ errorOffset: Int) throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw JSONError(.invalidUnicodeEscape, at: errorOffset) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[position]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw JSONError(.invalidUnicodeEscape, at: errorOffset)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
