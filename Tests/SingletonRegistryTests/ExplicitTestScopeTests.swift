import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// Code that Swift Testing does not run (a detached task here stands for an XCTest case or a harness of a team's
/// own) declares itself a test with `withTestSingletons`: its unreplaced keys read as their test values, made for
/// it alone, and a key without one is reported where it says.
@Suite(.hangBound) struct ExplicitTestScopeTests {
    /// What an explicit test reported.
    final class Reports: Sendable {
        private let messages = SanitizerVisibleMutex<[String]>([])
        func append(_ message: String) { messages.withLock { $0.append(message) } }
        var all: [String] { messages.withLock { $0 } }
    }

    @Test func outsideSwiftTestingAScopeSaysItIsATest() async throws {
        let reports = Reports()
        let (greeting, undeclared, manager, again) = try await Task.detached {
            try await withTestSingletons(named: "harness case", reportingIssues: reports.append) {
                (
                    await appSingletons[TestValueTests.GreetingKey.self], await appSingletons.undeclared,
                    await appSingletons.longTaskManager, await Task { await appSingletons.longTaskManager }.value
                )
            }
        }.value
        #expect(greeting == "test", "the key's test value, not its live one")
        #expect(undeclared == "live")
        #expect(reports.all.count == 1, "\(reports.all)")
        #expect(reports.all.first?.contains("appSingletons.undeclared was read in test harness case") == true)
        #expect(manager === again, "the scope's tasks read the test's own value")
        #expect(await appSingletons.longTaskManager !== manager, "the scope's values are its own")
    }

    @Test func twoExplicitTestsBesideEachOtherHaveTheirOwnValues() async throws {
        func run(_ name: String) async throws -> LongTaskManager {
            try await Task.detached {
                try await withTestSingletons(named: name, reportingIssues: { Issue.record(Comment(rawValue: $0)) }) {
                    let manager = await appSingletons.longTaskManager
                    try await manager.run(LongTask(name: name) { progress in await progress.report(1) })
                    #expect(await manager.state == .finished(name: name))
                    return manager
                }
            }.value
        }
        async let first = run("first")
        async let second = run("second")
        let (a, b) = try await (first, second)
        #expect(a !== b)
    }

    @Test func aReplacementInTheScopeWinsAndNothingIsReported() async throws {
        let reports = Reports()
        let seen = try await Task.detached {
            try await withTestSingletons(
                named: "replaced", reportingIssues: reports.append, { $0[TestValueTests.UndeclaredKey.self] = "mock" }
            ) { await appSingletons.undeclared }
        }.value
        #expect(seen == "mock")
        #expect(reports.all.isEmpty)
    }
}
