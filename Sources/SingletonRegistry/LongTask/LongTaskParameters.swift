/// Compares and describes the type-erased parameters of a ``LongTask``.
enum LongTaskParameters {
    /// Whether `a` and `b` are equal values of the same type.
    static func equal(_ a: any Hashable & Sendable, _ b: any Hashable & Sendable) -> Bool {
        AnyHashable(a) == AnyHashable(b)
    }

    /// `parameters` as text, or `nil` for the empty string a job without parameters has.
    static func describe(_ parameters: any Hashable & Sendable) -> String? {
        let text = "\(parameters)"
        return text.isEmpty ? nil : text
    }
}
