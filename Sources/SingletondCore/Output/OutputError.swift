/// The TPV output file could not be opened.
package struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path given with `--output`.
    package var path: String
    /// Why, as the system says it.
    package var reason: String

    /// Creates an error.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `cannot open output PATH: REASON`.
    package var description: String { "cannot open output \(path): \(reason)" }
}
