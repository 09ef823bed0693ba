/// A control request the daemon cannot serve; the client gets `{"class":"ERROR","message":...}`.
public struct ControlRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the request.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
