/// One member of a JSON object: a key and its value.
public struct JSONMember: Sendable, Hashable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONValue

    /// Creates a member.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}
