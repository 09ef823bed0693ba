import Dispatch
@_spi(Testing) import SingletonRegistry
import SingletonRegistryTesting
import Testing

/// Reads of an overridden value from outside the override's task tree are detected, not silently live, and are
/// blamed only on the test they can be attributed to.
///
/// Each test replaces a key of its own, so what another test does cannot change what this one records.
@Suite(.timeLimit(.minutes(1))) struct EscapedReadTests {
    /// A key per test: a plain value, so replacing it needs no lifecycle.
    enum DetachedKey: SingletonKey { static var liveValue: String { "live" } }
    enum DispatchKey: SingletonKey { static var liveValue: String { "live" } }
    enum InsideKey: SingletonKey { static var liveValue: String { "live" } }
    enum SharedKey: SingletonKey { static var liveValue: String { "live" } }
    enum TraitKey: SingletonKey { static var liveValue: String { "live" } }
    enum ParallelTraitKey: SingletonKey { static var liveValue: String { "live" } }

    @RegistryActor
    static func read<Key: SingletonKey>(_ key: Key.Type) -> Key.Value { appSingletons[key] }

    @Test func aDetachedTaskReadIsAttributedToTheOnlyScopeThatReplacedTheKey() async throws {
        await EscapedReadDetection.enable()
        let (escapes, unattributed) = try await withSingletons({ $0[DetachedKey.self] = "replaced" }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            #expect(await scope.replaced == ["detached"])
            let seen = await Task.detached { await Self.read(DetachedKey.self) }.value
            #expect(seen == "live", "a detached task sees the process-wide value")
            return await (scope.escapes, scope.unattributedEscapeCount)
        }
        #expect(escapes == [EscapedRead(keyName: "detached")])
        #expect(unattributed == 0)
    }

    /// The process-wide container already holds the key when the escaped read comes: the read finds it there
    /// and is noted all the same.
    @Test func aDispatchCallbackReadOfAKeyAlreadyHeldIsAttributed() async throws {
        await EscapedReadDetection.enable()
        // Read from outside the test (a detached task), so that the process-wide container holds the live value.
        #expect(await Task.detached { await Self.read(DispatchKey.self) }.value == "live")
        let escapes = try await withSingletons({ $0[DispatchKey.self] = "replaced" }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    Task {
                        _ = await Self.read(DispatchKey.self)
                        done.resume()
                    }
                }
            }
            return await scope.escapes
        }
        #expect(escapes == [EscapedRead(keyName: "dispatch")])
    }

    /// The report names the accessor the code wrote (`weatherClient`), even where the key's derived name differs.
    enum ForecastSourceKey: SingletonKey { static var liveValue: String { "live" } }

    @Test func anEscapeNamesTheAccessorThatWasRead() async throws {
        await EscapedReadDetection.enable()
        let escapes = try await withSingletons({ $0.forecast = "replaced" }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            #expect(await Task.detached { await appSingletons.forecast }.value == "live")
            return await scope.escapes
        }
        #expect(escapes == [EscapedRead(keyName: "forecastSource", accessor: "forecast")])
        #expect(escapes.first?.description.hasPrefix("appSingletons.forecast (key forecastSource) was read") == true)
    }

    @Test func readsInsideTheTaskTreeAreNotEscapes() async throws {
        await EscapedReadDetection.enable()
        let escapes = try await withSingletons({ $0[InsideKey.self] = "replaced" }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            #expect(await Self.read(InsideKey.self) == "replaced")
            #expect(await Task { await Self.read(InsideKey.self) }.value == "replaced")
            await withTaskGroup(of: Void.self) { group in
                group.addTask { #expect(await Self.read(InsideKey.self) == "replaced") }
            }
            return await scope.escapes + scope.unattributedEscapes
        }
        #expect(escapes.isEmpty)
    }

    /// Two task trees replace the same key; one of them reads it from a detached task while both are active. The
    /// read could have come from either tree, so it is recorded on both as unattributed and blames neither.
    @Test func anEscapeWhileTwoTreesReplacedTheKeyBlamesNeither() async throws {
        await EscapedReadDetection.enable()
        let (bothActive, arrived) = AsyncStream.makeStream(of: Void.self)
        let (readDone, finished) = AsyncStream.makeStream(of: Void.self)
        async let escaping = withSingletons({ $0[SharedKey.self] = "escaping" }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            for await _ in bothActive { break }
            _ = await Task.detached { await Self.read(SharedKey.self) }.value
            finished.yield()
            return await (scope.escapeCount, scope.unattributedEscapeCount)
        }
        async let innocent = withSingletons({ $0[SharedKey.self] = "innocent" }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            arrived.yield()
            for await _ in readDone { break }
            return await (scope.escapeCount, scope.unattributedEscapeCount)
        }
        let (escapingCounts, innocentCounts) = try await (escaping, innocent)
        #expect(escapingCounts == (0, 1))
        #expect(innocentCounts == (0, 1))
    }

    @Test func theTraitReportsAnAttributedEscapeAsAFailure() async throws {
        let trait = SingletonsTrait.singletons { $0[TraitKey.self] = "replaced" }
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                _ = await Task.detached { await Self.read(TraitKey.self) }.value
            }
        } matching: { issue in
            issue.severity == .error && issue.comments.contains { $0.rawValue.contains("escaped the test's task tree") }
        }
    }

    /// The issue's scenario: test A escapes while test B, with its own override of the same key and no escape,
    /// runs beside it. B must not fail; neither does A, since the read cannot be told apart from one of B's.
    @Test func theTraitNeverFailsATestForAnotherTestsEscape() async throws {
        let trait = SingletonsTrait.singletons { $0[ParallelTraitKey.self] = "replaced" }
        let test = try #require(Test.current)
        let (bActive, arrived) = AsyncStream.makeStream(of: Void.self)
        let (readDone, finished) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await trait.provideScope(for: test, testCase: Test.Case.current) {
                    for await _ in bActive { break }
                    _ = await Task.detached { await Self.read(ParallelTraitKey.self) }.value
                    finished.yield()
                }
            }
            group.addTask {
                try await trait.provideScope(for: test, testCase: Test.Case.current) {
                    arrived.yield()
                    for await _ in readDone { break }
                }
            }
            try await group.waitForAll()
        }
    }
}

extension AppSingletons {
    /// An accessor whose name is not its key's derived name.
    var forecast: String {
        get { self[EscapedReadTests.ForecastSourceKey.self] }
        set { self[EscapedReadTests.ForecastSourceKey.self] = newValue }
    }
}
