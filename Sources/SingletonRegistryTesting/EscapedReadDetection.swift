@_spi(Testing) import SingletonRegistry
import Testing

/// Turns on the registry's detection of reads that escape an override scope, and reports them as test issues.
///
/// The `.singletons` trait enables detection itself; call ``enable()`` when you use
/// `withSingletons(_:isolation:operation:)` directly and want escapes recorded on the scope.
public enum EscapedReadDetection {
    /// Counts a read as escaped when it happens outside every test's task tree.
    ///
    /// Code inside a test's task tree carries `Test.current`; a detached task, a Dispatch callback or a thread does
    /// not. The registry attributes such a read to a test only when that test's scopes are the only active ones;
    /// otherwise the read is unattributed and fails no test.
    @RegistryActor
    public static func enable() {
        guard SingletonScope.isEscapedRead == nil else { return }
        SingletonScope.isEscapedRead = { Test.current == nil }
    }

    /// Records the escaped reads of `scope` in the calling test: an error for reads attributed to its task tree,
    /// a warning for reads that may have come from another test running beside it.
    @RegistryActor
    package static func recordIssues(for scope: SingletonScope, sourceLocation: SourceLocation = #_sourceLocation) {
        if let first = scope.escapes.first {
            let message =
                "\(scope.escapeCount) read(s) of overridden \(names(scope.escapes)) escaped the test's task tree. "
                + "\(first)"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
        if let first = scope.unattributedEscapes.first {
            let message =
                "\(scope.unattributedEscapeCount) read(s) of overridden \(names(scope.unattributedEscapes)) came "
                + "from outside every test's task tree while other tests ran beside this one, so they cannot be "
                + "attributed to this test and do not fail it. \(first)"
            Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: sourceLocation)
        }
    }

    private static func names(_ reads: [EscapedRead]) -> String {
        Set(reads.map(\.keyName)).sorted().joined(separator: ", ")
    }
}
