/// Escaped reads that no test can be blamed for, reported once each for the whole run.
///
/// A read from a task that carries neither a scope nor a test (a detached task, a Dispatch callback, a thread) could
/// have come from any test that replaced the key, or from none. It is reported once, when first made, as a warning
/// of no test; later reads of the same accessor are only counted.
@RegistryActor
package enum UnattributedEscapes {
    /// Reports an unattributed escaped read: the read, the names of the tests whose scopes had replaced the key, and
    /// the report location of the first of those scopes. The testing library installs it.
    package static var report: (@RegistryActor @Sendable (EscapedRead, [String], (any Sendable)?) -> Void)?

    /// How many times each unattributed escaped read was made in this process.
    package private(set) static var counts: [EscapedRead: Int] = [:]

    /// How many reports were made of each unattributed escaped read: one, or none while no reporter is installed.
    package private(set) static var reports: [EscapedRead: Int] = [:]

    /// Reports a read made after the scope its task or thread carries had ended (an ``EscapedSingletons`` used too
    /// late), with the accessor; the testing library installs it.
    package static var reportReadAfterScopeEnded: (@RegistryActor @Sendable (String) -> Void)?

    /// How many reads were made after the scope their task or thread carries had ended, by accessor.
    package private(set) static var readsAfterScopeEnded: [String: Int] = [:]

    /// The accessors whose escapes a test makes on purpose and checks through the counts above: counted, and not
    /// reported for the run (the registry's own tests of its escape reports).
    package private(set) static var expected: Set<String> = []

    /// Makes the escapes through `accessor` counted only, for a test that makes them on purpose.
    package static func expect(_ accessor: String) { expected.insert(accessor) }

    /// Counts a read through `accessor` made after its scope ended, and reports the first of each accessor.
    static func noteReadAfterScopeEnded(accessor: String) {
        let count = readsAfterScopeEnded[accessor, default: 0]
        readsAfterScopeEnded[accessor] = count + 1
        guard count == 0, !expected.contains(accessor) else { return }
        reportReadAfterScopeEnded?(accessor)
    }

    /// Counts `read`, and reports it if it is the first of its kind.
    static func note(_ read: EscapedRead, replacedBy tests: [String], reportLocation: (any Sendable)?) {
        let count = counts[read, default: 0]
        counts[read] = count + 1
        guard count == 0, let report else { return }
        reports[read, default: 0] += 1
        guard !expected.contains(read.accessor) else { return }
        report(read, tests, reportLocation)
    }
}
