/// Why the JSON reader refused its input, and where.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// The input ended inside a value (or was empty).
        case unexpectedEnd
        /// A byte that cannot start or continue the value at this point.
        case unexpectedByte(UInt8)
        /// A number that breaks JSON's number grammar.
        case invalidNumber
        /// A number too large for a `Double`.
        case numberOutOfRange
        /// A backslash escape JSON does not define.
        case invalidEscape
        /// A `\u` escape that is not four hex digits, or a lone UTF-16 surrogate.
        case invalidUnicodeEscape
        /// A string whose bytes are not valid UTF-8.
        case invalidUTF8
        /// An unescaped control character (below U+0020) inside a string.
        case controlCharacterInString
        /// Arrays and objects nested deeper than the limit.
        case tooDeep(limit: Int)
        /// An object that names the same key twice.
        case duplicateKey(String)
        /// Bytes other than whitespace after the value.
        case trailingData
    }

    /// What was wrong.
    public var reason: Reason
    /// The offset of the offending byte from the start of the input.
    public var offset: Int

    /// Creates an error.
    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// For example `invalid JSON at byte 7: unexpected byte 0x7D '}'`.
    public var description: String {
        let what: String
        switch reason {
        case .unexpectedEnd: what = "unexpected end of input"
        case .unexpectedByte(let b):
            let hex = String(b, radix: 16, uppercase: true)
            let shown = (0x20..<0x7F).contains(b) ? " '\(Character(Unicode.Scalar(b)))'" : ""
            what = "unexpected byte 0x\(hex.count == 1 ? "0" : "")\(hex)\(shown)"
        case .invalidNumber: what = "malformed number"
        case .numberOutOfRange: what = "number out of range"
        case .invalidEscape: what = "invalid escape sequence"
        case .invalidUnicodeEscape: what = "invalid \\u escape"
        case .invalidUTF8: what = "invalid UTF-8 in string"
        case .controlCharacterInString: what = "unescaped control character in string"
        case .tooDeep(let limit): what = "nesting deeper than \(limit) levels"
        case .duplicateKey(let key): what = "duplicate key \"\(key)\""
        case .trailingData: what = "data after the value"
        }
        return "invalid JSON at byte \(offset): \(what)"
    }
}
