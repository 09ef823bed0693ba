/// Why one line from gpsd could not be decoded into a ``GPSDMessage``.
///
/// Decoding errors concern one line only: a client reports or counts them and carries on with the next line.
public enum GPSDDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line is not valid JSON.
    case invalidJSON(JSONError)
    /// The line is JSON but not an object.
    case notAnObject(found: String)
    /// The object has no string member `class`.
    case missingClass
    /// A member the class requires is absent.
    case missingField(className: String, field: String)
    /// A member has the wrong JSON type, for example `"lat":"abc"`.
    case wrongType(className: String, field: String, expected: String, found: String)
    /// A member has the right type but a value outside its domain, for example `"mode":7` or `"lat":123`.
    case invalidValue(className: String, field: String, reason: String)

    /// For example `TPV field "lat": expected a number, found a string`.
    public var description: String {
        switch self {
        case .invalidJSON(let error): "\(error)"
        case .notAnObject(let found): "gpsd message is a JSON \(found), not an object"
        case .missingClass: "gpsd message has no \"class\" string"
        case .missingField(let c, let f): "\(c) message lacks the required field \"\(f)\""
        case .wrongType(let c, let f, let expected, let found):
            "\(c) field \"\(f)\": expected \(expected), found \(found)"
        case .invalidValue(let c, let f, let reason): "\(c) field \"\(f)\": \(reason)"
        }
    }
}
