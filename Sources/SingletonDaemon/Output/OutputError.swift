/// The TPV output file could not be opened.
public struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path given with `--output`.
    public var path: String
    /// Why, as the system says it.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `cannot open output PATH: REASON`.
    public var description: String { "cannot open output \(path): \(reason)" }
}
