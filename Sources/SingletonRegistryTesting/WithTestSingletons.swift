import SingletonRegistry

/// Runs `operation` as a test of its own, for code that Swift Testing does not run (an XCTest case, a test harness
/// of a team's own, a detached task): with some shared values replaced, as
/// `withSingletons(_:isolation:operation:)` does, and every key it reads without replacing it read as its own
/// `testValue`, made for this scope alone and shut down when it ends.
///
/// A key that declares no test value is reported to `reportIssue` (the message names the accessor, the test and
/// the two fixes), and the operation goes on with a live value of its own, as in a Swift Testing test:
///
/// ```swift
/// func testSurvey() async throws {   // XCTest
///     try await withTestSingletons(named: "testSurvey", reportingIssues: { XCTFail($0) }) {
///         try await appSingletons.longTaskManager.doLongTask()
///     }
/// }
/// ```
///
/// The scope's task, its child tasks and every `Task {}` it starts belong to the test; inside a Swift Testing test,
/// the scope takes the place of the running test for them.
public func withTestSingletons<R>(
    named name: String,
    reportingIssues reportIssue: @escaping @Sendable (String) -> Void,
    _ configure: @RegistryActor (AppSingletons) throws -> Void = { _ in },
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async throws -> R {
    let test = ExplicitTest(token: ExplicitTest.Token(), name: name, reportIssue: reportIssue)
    return try await ExplicitTest.$current.withValue(test) {
        try await withSingletons(configure) {
            await SingletonScope.ofCurrentTask?.markHoldsTestValues()
            return try await operation()
        }
    }
}

/// A test that an explicit scope declares: who it is, and where its issues go.
struct ExplicitTest: Sendable {
    /// What makes each explicit test's identity unique.
    final class Token: Hashable, Sendable {
        static func == (lhs: Token, rhs: Token) -> Bool { lhs === rhs }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    /// What tells this test from every other.
    var token: Token
    /// The name reports use.
    var name: String
    /// Where its issues go.
    var reportIssue: @Sendable (String) -> Void

    /// The test, as the registry knows it.
    var identity: SingletonTestIdentity { SingletonTestIdentity(id: token, name: name) }

    /// The explicit test the calling task runs for, if any.
    @TaskLocal static var current: ExplicitTest?
}
