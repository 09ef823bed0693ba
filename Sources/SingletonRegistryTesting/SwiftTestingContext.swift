import SingletonRegistry
import Testing

/// Swift Testing, as the registry asks it while a test runs: the registry finds this type by its name
/// (`SingletonRegistryTesting.SwiftTestingContext`) in any process that links this module, so a test that reads a
/// value it did not replace gets a value of its own, made from the key's test value.
enum SwiftTestingContext: SingletonTestContext {
    /// The running test: an explicit scope's, or Swift Testing's `Test.current`; the test's child tasks and `Task {}`
    /// inherit either.
    static func currentTest() -> SingletonTestIdentity? {
        if let explicit = ExplicitTest.current { return explicit.identity }
        guard let test = Test.current else { return nil }
        let name = test.displayName ?? test.name
        // The cases of a parameterised test run beside each other: each is a test of its own here. Swift Testing
        // gives a case no public identity, so the case's description (its arguments) stands for it.
        guard let testCase = Test.Case.current, testCase.isParameterized else {
            return SingletonTestIdentity(id: test.id, name: name)
        }
        return SingletonTestIdentity(id: CaseIdentity(test: test.id, testCase: "\(testCase)"), name: name)
    }

    /// Records `message` against the running test: the explicit one of ``withTestSingletons(named:reportingIssues:_:isolation:operation:)``,
    /// or Swift Testing's, at the test's declaration (the read that found the problem runs inside an accessor, which
    /// does not know its caller's place).
    static func recordIssue(_ message: String) {
        if let explicit = ExplicitTest.current { return explicit.reportIssue(message) }
        SingletonIssue.record(message, sourceLocation: SingletonIssue.testLocation(or: #_sourceLocation))
    }

    /// Records `message` against the running test, at the given place: the explicit test's reporter gets the
    /// message alone.
    static func recordIssue(_ message: String, fileID: String, filePath: String, line: Int, column: Int) {
        if let explicit = ExplicitTest.current { return explicit.reportIssue(message) }
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Records `message` as a failure of no test: from code that carries none, at once (Swift Testing then reports
    /// it for the run); from a task that still carries a test (one that outlived it), from a detached task, so that
    /// the report is not charged to that test.
    static func recordRunIssue(_ message: String) {
        guard Test.current != nil || ExplicitTest.current != nil else {
            return SingletonIssue.record(message, sourceLocation: #_sourceLocation)
        }
        Task.detached { SingletonIssue.record(message, sourceLocation: #_sourceLocation) }
    }

    /// A ``TestClock`` at its zero instant.
    static func makeTestClock() -> any Clock<Duration> {
        TestClock()
    }
}

/// One case of a parameterised test: its test, and its arguments' description.
struct CaseIdentity: Hashable, Sendable {
    var test: Test.ID
    var testCase: String
}
