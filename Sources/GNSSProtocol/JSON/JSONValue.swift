/// One JSON value, as the strict reader in ``JSONValue/init(parsing:maximumDepth:)`` produces it.
///
/// Objects keep their members in document order; gpsd's objects are small, so member lookup is a linear scan.
package enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A finite number; integers up to 2^53 are exact.
    case number(Double)
    /// A string, escapes decoded.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in document order, keys unique.
    case object([JSONMember])

    /// The default nesting limit: deep enough for any gpsd message (which nest three levels), shallow enough that
    /// comparing or destroying a value never exhausts the stack.
    package static let defaultMaximumDepth = 32

    /// Parses exactly one JSON value (surrounding whitespace allowed) from UTF-8 bytes.
    ///
    /// The reader is iterative, so `[[[[…` cannot overflow the stack; nesting beyond `maximumDepth` arrays and
    /// objects, invalid UTF-8, lone surrogates, control characters in strings, duplicate keys, numbers that do not
    /// fit a `Double` and trailing bytes are errors.
    package init(parsing bytes: some Collection<UInt8>, maximumDepth: Int = JSONValue.defaultMaximumDepth)
        throws(JSONError)
    {
        let parsed: Result<JSONValue, JSONError>? = bytes.withContiguousStorageIfAvailable { buffer in
            var reader = JSONReader(bytes: buffer, maximumDepth: maximumDepth)
            return Result { () throws(JSONError) in try reader.parseDocument() }
        }
        if let parsed {
            self = try parsed.get()
        } else {
            let copy = Array(bytes)
            self = try copy.withUnsafeBufferPointer { (buffer) throws(JSONError) in
                var reader = JSONReader(bytes: buffer, maximumDepth: maximumDepth)
                return try reader.parseDocument()
            }
        }
    }

    /// Parses exactly one JSON value from a string.
    package init(parsing text: String, maximumDepth: Int = JSONValue.defaultMaximumDepth) throws(JSONError) {
        try self.init(parsing: Array(text.utf8), maximumDepth: maximumDepth)
    }

    /// The value of the member named `key` when this is an object that has one.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, when this is a string.
    package var stringValue: String? {
        if case .string(let s) = self { s } else { nil }
    }

    /// The number, when this is a number.
    package var doubleValue: Double? {
        if case .number(let n) = self { n } else { nil }
    }

    /// The Boolean, when this is `true` or `false`.
    package var boolValue: Bool? {
        if case .bool(let b) = self { b } else { nil }
    }

    /// The elements, when this is an array.
    package var arrayValue: [JSONValue]? {
        if case .array(let a) = self { a } else { nil }
    }

    /// The members, when this is an object.
    package var objectValue: [JSONMember]? {
        if case .object(let o) = self { o } else { nil }
    }

    /// The JSON type's name as error messages use it: `"null"`, `"boolean"`, `"number"`, `"string"`, `"array"`
    /// or `"object"`.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
