/// Typed access to the members of one gpsd object, turning absent members into `nil` and wrong types into
/// ``GPSDDecodingError`` values.
///
/// JSON `null` counts as absent: gpsd never sends it, but servers that imitate gpsd write `null` for values they
/// do not have.
struct GPSDFields {
    let className: String
    let members: [JSONMember]

    func value(_ key: String) -> JSONValue? {
        guard let member = members.first(where: { $0.key == key }), member.value != .null else { return nil }
        return member.value
    }

    func wrongType(_ key: String, _ expected: String, _ found: JSONValue) -> GPSDDecodingError {
        .wrongType(className: className, field: key, expected: expected, found: "a \(found.typeName)")
    }

    func invalid(_ key: String, _ reason: String) -> GPSDDecodingError {
        .invalidValue(className: className, field: key, reason: reason)
    }

    func required<T>(_ key: String, _ get: (String) throws(GPSDDecodingError) -> T?) throws(GPSDDecodingError) -> T {
        guard let value = try get(key) else { throw .missingField(className: className, field: key) }
        return value
    }

    func double(_ key: String) throws(GPSDDecodingError) -> Double? {
        guard let v = value(key) else { return nil }
        guard case .number(let n) = v else { throw wrongType(key, "a number", v) }
        return n
    }

    func double(_ key: String, in range: ClosedRange<Double>) throws(GPSDDecodingError) -> Double? {
        guard let n = try double(key) else { return nil }
        guard range.contains(n) else {
            throw invalid(key, "\(n) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return n
    }

    func int(_ key: String) throws(GPSDDecodingError) -> Int? {
        guard let v = value(key) else { return nil }
        guard case .number(let n) = v else { throw wrongType(key, "an integer", v) }
        // Checked by conversion rather than `Int(exactly:)`, which would pull in libm.
        guard n > -9.0e18, n < 9.0e18, Double(Int(n)) == n else { throw invalid(key, "\(n) is not an integer") }
        return Int(n)
    }

    func string(_ key: String) throws(GPSDDecodingError) -> String? {
        guard let v = value(key) else { return nil }
        guard case .string(let s) = v else { throw wrongType(key, "a string", v) }
        return s
    }

    func bool(_ key: String) throws(GPSDDecodingError) -> Bool? {
        guard let v = value(key) else { return nil }
        guard case .bool(let b) = v else { throw wrongType(key, "a boolean", v) }
        return b
    }

    func time(_ key: String) throws(GPSDDecodingError) -> GNSSTime? {
        guard let text = try string(key) else { return nil }
        guard let time = GNSSTime(iso8601: text) else {
            throw invalid(key, "\"\(text)\" is not an ISO 8601 UTC time")
        }
        return time
    }

    func array(_ key: String) throws(GPSDDecodingError) -> [JSONValue]? {
        guard let v = value(key) else { return nil }
        guard case .array(let a) = v else { throw wrongType(key, "an array", v) }
        return a
    }
}
