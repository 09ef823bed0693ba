/// A command line the parser rejects: the daemon prints ``message`` and the usage, and exits 64.
package struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the offending argument.
    package var message: String

    /// Creates an error.
    package init(_ message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
