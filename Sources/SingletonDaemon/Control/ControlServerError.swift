/// The control socket could not be set up.
public struct ControlServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The socket's path.
    public var path: String
    /// What went wrong, as a sentence.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `control socket PATH: REASON`.
    public var description: String { "control socket \(path): \(reason)" }
}
