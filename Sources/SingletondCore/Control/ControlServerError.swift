/// The control socket could not be set up.
package struct ControlServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The socket's path.
    package var path: String
    /// What went wrong, as a sentence.
    package var reason: String

    /// Creates an error.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `control socket PATH: REASON`.
    package var description: String { "control socket \(path): \(reason)" }
}
