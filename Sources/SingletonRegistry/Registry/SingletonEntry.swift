/// One key a container holds, as reports show it.
public struct SingletonEntry: Sendable, Hashable, CustomStringConvertible {
    /// The key's ``SingletonKey/name``.
    public var name: String
    /// Whether the value is the key's live value; `false` when it was replaced.
    public var isLive: Bool

    /// Creates an entry.
    public init(name: String, isLive: Bool) {
        self.name = name
        self.isLive = isLive
    }

    /// `name: live` or `name: replaced`.
    public var description: String { "\(name): \(isLive ? "live" : "replaced")" }
}
