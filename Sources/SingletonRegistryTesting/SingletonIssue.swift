import Testing

/// A problem the registry found in a test, recorded as an issue whose headline is the sentence that describes it,
/// at a place in the user's code.
///
/// Swift Testing heads an issue recorded from a comment with "Issue recorded" and prints the comment on the next
/// line; an issue recorded from an error is headed "Caught error: " and the error's description. So a failure is
/// recorded as this error, and its report reads "Caught error: appSingletons.weather was read in test …". A warning
/// cannot be recorded from an error, so it is recorded from a comment.
struct SingletonIssue: Error, CustomStringConvertible {
    /// The sentence that says what happened and how to fix it.
    var description: String

    /// Where an issue with no better place is recorded: the running test's declaration (the `@Test` function), or
    /// `fallback` outside every test. A read of `appSingletons.weather` runs inside the accessor the user's module
    /// declares, which does not pass on its caller's source location, so the read's own place is not known.
    static func testLocation(or fallback: SourceLocation) -> SourceLocation {
        Test.current?.sourceLocation ?? fallback
    }

    /// Records `sentence` as an issue of the running test at `sourceLocation`: a failure whose headline is the
    /// sentence, or, with `severity` `.warning`, a warning that carries it as its comment.
    static func record(_ sentence: String, severity: Issue.Severity = .error, sourceLocation: SourceLocation) {
        if severity == .warning {
            Issue.record(Comment(rawValue: sentence), severity: .warning, sourceLocation: sourceLocation)
        } else {
            Issue.record(SingletonIssue(description: sentence), sourceLocation: sourceLocation)
        }
    }
}

extension Issue {
    /// The sentence of an issue the registry recorded: the description of its ``SingletonIssue``, or its first
    /// comment.
    package var singletonReport: String? {
        if let error = error as? SingletonIssue { return error.description }
        return comments.first?.rawValue
    }
}
