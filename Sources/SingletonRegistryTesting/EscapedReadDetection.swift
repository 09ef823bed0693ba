import SingletonRegistry
import Testing

/// Turns on the registry's detection of reads that escape an override scope, and reports them as test issues.
///
/// The `.singletons` trait enables detection itself; call ``enable()`` when you use
/// `withSingletons(_:isolation:operation:)` directly and want escapes recorded on the scope.
public enum EscapedReadDetection {
    /// Counts a read as escaped when it misses the replacement of a scope that is active.
    ///
    /// A read by a task that carries its test (Swift Testing's `Test.current`) but not the test's scope (a task
    /// started before the scope was entered) is attributed to that test, which fails. A read by a task that carries
    /// no test (a detached task, a Dispatch callback, a thread) names no test: it is one warning for the whole run,
    /// recorded at the end of the next test with the trait (or at once when no test's scope is active), whichever
    /// tests run beside it.
    @RegistryActor
    public static func enable() {
        guard SingletonScope.isEscapedRead == nil else { return }
        UnattributedEscapes.report = { read, tests, location in
            warn(unattributedReport(read, tests: tests), at: location as? SourceLocation ?? #_sourceLocation)
        }
        UnattributedEscapes.reportReadAfterScopeEnded = { accessor in
            warn(
                "appSingletons.\(accessor) was read by code that carries an override scope which had already ended "
                    + "(a task or an EscapedSingletons that outlived its withSingletons or test), so it got none "
                    + "of that scope's values: a test value of its own, made for the test it carries or for the run. "
                    + "Finish the escaped work before the scope ends.",
                at: #_sourceLocation)
        }
        SingletonScope.isEscapedRead = { Test.current == nil }
    }

    /// Records `sentence` as a warning of no test, for the run: from a detached task, which carries no test, so
    /// that Swift Testing charges it to no test (the reading code may still carry a test that has ended).
    @RegistryActor
    private static func warn(_ sentence: String, at location: SourceLocation) {
        Task.detached { SingletonIssue.record(sentence, severity: .warning, sourceLocation: location) }
    }

    /// Marks `scope` as reported at `sourceLocation`: the place its unattributed escapes are reported at.
    @RegistryActor
    package static func track(_ scope: SingletonScope?, sourceLocation: SourceLocation) {
        scope?.reportLocation = sourceLocation
    }

    /// Records the escaped reads attributed to `scope` as a failure of the calling test, at `sourceLocation`.
    @RegistryActor
    package static func recordIssues(for scope: SingletonScope, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let first = scope.escapes.first else { return }
        let names = Set(scope.escapes.map(\.keyName)).sorted().joined(separator: ", ")
        let message =
            "\(first); \(scope.escapeCount) read(s) of overridden \(names) escaped the test's scope, from a task of "
            + "this test that does not carry the scope (started before the scope was entered)."
        SingletonIssue.record(message, sourceLocation: sourceLocation)
    }

    /// The warning for an escaped read that no test can be blamed for.
    package static func unattributedReport(_ read: EscapedRead, tests: [String]) -> String {
        let replaced = tests.isEmpty ? "" : " (replaced by \(tests.joined(separator: ", ")))"
        return "\(read)\(replaced). The read came from a task that carries no test, so no test can be blamed and "
            + "none fails; it is reported once for the run. Start the work inside the test (`Task {}` or a task "
            + "group), or pass the value to it."
    }
}
