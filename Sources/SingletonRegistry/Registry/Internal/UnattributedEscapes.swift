/// Escaped reads that no test can be blamed for, reported once each for the whole run.
///
/// A read from a task that carries neither a scope nor a test (a detached task, a Dispatch callback, a thread) could
/// have come from any test that replaced the key, or from none. It is reported once, when first made, as a warning
/// of no test; later reads of the same accessor are only counted.
@RegistryActor
package enum UnattributedEscapes {
    /// Reports an unattributed escaped read: the read, the names of the tests whose scopes had replaced the key, and
    /// the report location of the first of those scopes. The testing library installs it.
    package static var report: (@Sendable (EscapedRead, [String], (any Sendable)?) -> Void)?

    /// How many times each unattributed escaped read was made in this process.
    package private(set) static var counts: [EscapedRead: Int] = [:]

    /// How many reports were made of each unattributed escaped read: one, or none while no reporter is installed.
    package private(set) static var reports: [EscapedRead: Int] = [:]

    /// Counts `read`, and reports it if it is the first of its kind.
    static func note(_ read: EscapedRead, replacedBy tests: [String], reportLocation: (any Sendable)?) {
        let count = counts[read, default: 0]
        counts[read] = count + 1
        guard count == 0, let report else { return }
        reports[read, default: 0] += 1
        report(read, tests, reportLocation)
    }
}
