import SingletonRegistry
import Testing

/// Turns on the registry's detection of reads that escape an override scope, and reports them as test issues.
///
/// The `.singletons` trait enables detection itself; call ``enable()`` when you use
/// ``SingletonRegistry/withSingletons(_:isolation:operation:)`` directly and want escapes recorded on the scope
/// (``SingletonRegistry/SingletonScope/escapes``).
public enum EscapedReadDetection {
    /// Counts a read as escaped when it happens outside every test's task tree.
    ///
    /// Code inside a test's task tree carries `Test.current`; a detached task, a Dispatch callback or a thread does
    /// not. Such a read cannot be attributed to one test, so the registry records it on every active scope that
    /// replaced the manager read.
    @RegistryActor
    public static func enable() {
        guard SingletonScope.isEscapedRead == nil else { return }
        SingletonScope.isEscapedRead = { Test.current == nil }
    }

    /// Records one issue for the escaped reads of `scope`, in the calling test.
    @RegistryActor
    public static func recordIssues(for scope: SingletonScope, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let first = scope.escapes.first else { return }
        let managers = Set(scope.escapes.map(\.key.description)).sorted().joined(separator: ", ")
        Issue.record(
            "\(scope.escapeCount) read(s) of overridden \(managers) escaped the test's task tree. \(first)",
            sourceLocation: sourceLocation)
    }
}
