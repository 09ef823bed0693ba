import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// A value a test reads without replacing it is the test's own, made from the key's test value; a key without one
/// is reported against the test.
@Suite(.hangBound) struct TestValueTests {
    /// A key that declares a test value.
    enum GreetingKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }

    /// A key that declares none.
    enum UndeclaredKey: SingletonKey {
        static var liveValue: String { "live" }
    }

    @Test func aTestReadsTheKeysTestValue() async {
        #expect(await appSingletons[GreetingKey.self] == "test")
        #expect(await Task { await appSingletons[GreetingKey.self] }.value == "test", "its tasks read it too")
    }

    @Test func aKeyWithoutATestValueIsReportedAgainstTheTest() async {
        await withKnownIssue {
            #expect(await appSingletons.undeclared == "live")
        } matching: { issue in
            let text = "\(issue)"
            return text.contains("appSingletons.undeclared was read in test")
                && text.contains("`.singletons { $0.undeclared = ... }`") && text.contains("static var testValue")
        }
    }

    @Test func aReplacementWinsOverTheTestValue() async {
        let seen = await withSingletons({ $0[GreetingKey.self] = "replaced" }) { await appSingletons[GreetingKey.self] }
        #expect(seen == "replaced")
    }

    @Test func theBuiltInKeysHaveTestValues() async {
        #expect(await appSingletons.clock is TestClock)
        let location = await appSingletons.locationManager
        #expect(await appSingletons.locationManager === location, "one per test")
        #expect(String(describing: type(of: location)).contains("Unscripted"))
    }

    /// Two tests run beside each other on the unreplaced `longTaskManager`: each runs a job on its own manager and
    /// never sees the other's state.
    @Test(arguments: ["first", "second"]) func parallelTestsHaveTheirOwnManagers(job: String) async throws {
        let manager = await appSingletons.longTaskManager
        #expect(await manager.isTaskDone == false)
        try await manager.run(LongTask(name: job) { progress in await progress.report(1) })
        #expect(await appSingletons.longTaskManager === manager)
        #expect(await manager.state == .finished(name: job))
    }

    /// With the trait, a test's own values live in its scope: listed, and shut down when it ends.
    @Test(.singletons { _ in }) func theTraitScopeHoldsTheTestsOwnValues() async throws {
        _ = await appSingletons[GreetingKey.self]
        let scope = try #require(await SingletonScope.ofCurrentTask)
        #expect(await scope.readWithoutReplacing == ["greeting"])
        #expect(await scope.replaced.isEmpty)
    }

    /// What a test used, as the trait reports it with `reportingUsage`.
    @Test(.singletons(reportingUsage: true) { $0.clock = SuspendingClock() })
    func theTraitReportsWhatTheTestUsed() async throws {
        _ = await appSingletons[GreetingKey.self]
        _ = await appSingletons.clock
        let scope = try #require(await SingletonScope.ofCurrentTask)
        #expect(
            await SingletonsTrait.usage(of: scope)
                == "singletons read without replacing them: greeting; replaced: clock")
    }
}

extension AppSingletons {
    var undeclared: String { self[TestValueTests.UndeclaredKey.self] }
}
