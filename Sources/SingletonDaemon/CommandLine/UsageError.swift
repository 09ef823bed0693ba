/// A command line the parser rejects: the daemon prints ``message`` and the usage, and exits 64.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the offending argument.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
