/// A control request the daemon cannot serve; the client gets `{"class":"ERROR","message":...}`.
package struct ControlRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the request.
    package var message: String

    /// Creates an error.
    package init(_ message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
