/// One member of a JSON object: a key and its value.
package struct JSONMember: Sendable, Hashable {
    /// The member's name.
    package var key: String
    /// The member's value.
    package var value: JSONValue

    /// Creates a member.
    package init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}
