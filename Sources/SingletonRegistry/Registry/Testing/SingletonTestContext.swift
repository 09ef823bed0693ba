/// What the registry asks a test library while a test runs: which test the calling task runs for, and how to
/// record an issue against it. `SingletonRegistryTesting` conforms a type of its own for Swift Testing; the
/// registry finds it by name when the process first reads ``appSingletons``, so a program that does not link it (the
/// daemon, a benchmark) is never in a test, and its reads cost what they always did.
package protocol SingletonTestContext: SendableMetatype {
    /// The test the calling task runs for (its task or one it started inherits the test), or `nil`.
    static func currentTest() -> SingletonTestIdentity?
    /// Records `message` as an issue of the current test.
    static func recordIssue(_ message: String)
    /// Records `message` as an issue of the current test, at the given place in the test's sources.
    static func recordIssue(_ message: String, fileID: String, filePath: String, line: Int, column: Int)
    /// Records `message` once for the run, as a problem of no test: code that carries no test made it.
    static func recordRunIssue(_ message: String)
    /// A manual clock, the test value of ``ClockKey``.
    static func makeTestClock() -> any Clock<Duration>
}

/// Records `message` as an issue of the test the calling task runs for; outside a test process, does nothing.
///
/// For test values that find a test doing what it should not (a location manager started without a script).
package func recordTestIssue(_ message: String) {
    TestValues.context?.recordIssue(message)
}

/// A test, as the registry knows it: an identity to keep its values apart from other tests', and a name for reports.
package struct SingletonTestIdentity: Hashable, Sendable {
    /// Unique among the process's tests (and among the cases of a parameterised one).
    package var id: any Hashable & Sendable
    /// The name reports use.
    package var name: String

    /// A test with identity `id` and name `name`.
    package init(id: any Hashable & Sendable, name: String) {
        self.id = id
        self.name = name
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { AnyHashable(lhs.id) == AnyHashable(rhs.id) }

    package func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(id)) }
}
