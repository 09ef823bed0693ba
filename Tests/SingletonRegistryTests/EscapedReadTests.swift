import Dispatch
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// Reads of an overridden value from outside the override's task tree are detected, not silently live: blamed on
/// the test the reading task carries, or, from a task that carries none, reported once for the run.
///
/// Each test replaces a key of its own, so what another test does cannot change what this one records.
@Suite(.hangBound) struct EscapedReadTests {
    /// A key per test: a plain value, so replacing it needs no lifecycle.
    enum DetachedKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }
    enum DispatchKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }
    enum InsideKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }
    enum SharedKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }
    enum TraitKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }
    enum ParallelTraitKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }
    enum LostScopeKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }
    enum AloneTraitKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }

    /// The escapes these tests make on purpose: counted, and checked through the counts, not reported for the run.
    static func expectTheirEscapes() async {
        await RegistryActor.run {
            for accessor in ["detached", "dispatch", "forecast", "shared", "parallelTrait", "aloneTrait", "trait"] {
                UnattributedEscapes.expect(accessor)
            }
        }
    }

    @RegistryActor
    static func read<Key: SingletonKey>(_ key: Key.Type) -> Key.Value { appSingletons[key] }

    @Test func aDetachedTaskReadIsReportedOnceAndBlamesNoScope() async throws {
        await Self.expectTheirEscapes()
        await EscapedReadDetection.enable()
        let escapes = try await withSingletons({ $0[DetachedKey.self] = "replaced" }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            #expect(await scope.replaced == ["detached"])
            let seen = await Task.detached { await Self.read(DetachedKey.self) }.value
            #expect(seen == "test", "a detached task in a test process gets the run's test value, never the live one")
            _ = await Task.detached { await Self.read(DetachedKey.self) }.value
            return await scope.escapes
        }
        #expect(escapes.isEmpty, "a detached task names no test: the read is not the scope's, even if it is alone")
        let read = EscapedRead(keyName: "detached")
        #expect(await UnattributedEscapes.counts[read] == 2)
        #expect(await UnattributedEscapes.reports[read] == 1, "one report for the run")
    }

    /// The process-wide container already holds the key when the escaped read comes: the read finds it there
    /// and is noted all the same.
    @Test func aDispatchCallbackReadOfAKeyAlreadyHeldIsNoted() async throws {
        await Self.expectTheirEscapes()
        await EscapedReadDetection.enable()
        // Read from outside the test (a detached task), so that the process-wide container holds the live value.
        #expect(await Task.detached { await Self.read(DispatchKey.self) }.value == "test")
        await withSingletons({ $0[DispatchKey.self] = "replaced" }) {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    Task {
                        _ = await Self.read(DispatchKey.self)
                        done.resume()
                    }
                }
            }
        }
        #expect(await UnattributedEscapes.reports[EscapedRead(keyName: "dispatch")] == 1)
    }

    /// The report names the accessor the code wrote (`weatherClient`), even where the key's derived name differs.
    enum ForecastSourceKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }

    @Test func anEscapeNamesTheAccessorThatWasRead() async throws {
        await Self.expectTheirEscapes()
        await EscapedReadDetection.enable()
        await withSingletons({ $0.forecast = "replaced" }) {
            #expect(await Task.detached { await appSingletons.forecast }.value == "test")
        }
        let read = EscapedRead(keyName: "forecastSource", accessor: "forecast")
        #expect(await UnattributedEscapes.reports[read] == 1)
        #expect(read.description.hasPrefix("appSingletons.forecast (key forecastSource) was read"))
    }

    @Test func readsInsideTheTaskTreeAreNotEscapes() async throws {
        await Self.expectTheirEscapes()
        await EscapedReadDetection.enable()
        let escapes = try await withSingletons({ $0[InsideKey.self] = "replaced" }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            #expect(await Self.read(InsideKey.self) == "replaced")
            #expect(await Task { await Self.read(InsideKey.self) }.value == "replaced")
            await withTaskGroup(of: Void.self) { group in
                group.addTask { #expect(await Self.read(InsideKey.self) == "replaced") }
            }
            return await scope.escapes
        }
        #expect(escapes.isEmpty)
        #expect(await UnattributedEscapes.counts[EscapedRead(keyName: "inside")] == nil)
    }

    /// A task of the test started before the scope carries the test but not the scope: its read is the test's
    /// escape, whatever runs beside it.
    @Test func aTaskOfTheTestThatLostTheScopeIsAttributedToIt() async throws {
        await Self.expectTheirEscapes()
        await EscapedReadDetection.enable()
        let (go, start) = AsyncStream.makeStream(of: Void.self)
        let early = Task { () -> String in
            for await _ in go { break }
            return await Self.read(LostScopeKey.self)
        }
        let escapes = try await withSingletons({ $0[LostScopeKey.self] = "replaced" }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            start.yield()
            #expect(await early.value != "replaced", "the early task misses the scope's replacement")
            return await scope.escapes
        }
        #expect(escapes == [EscapedRead(keyName: "lostScope")])
    }

    /// Two task trees replace the same key; one of them reads it from a detached task while both are active. The
    /// read is reported once, and neither scope is blamed.
    @Test func anEscapeWhileTwoTreesReplacedTheKeyIsReportedOnce() async throws {
        await Self.expectTheirEscapes()
        await EscapedReadDetection.enable()
        let (bothActive, arrived) = AsyncStream.makeStream(of: Void.self)
        let (readDone, finished) = AsyncStream.makeStream(of: Void.self)
        async let escaping = withSingletons({ $0[SharedKey.self] = "escaping" }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            for await _ in bothActive { break }
            _ = await Task.detached { await Self.read(SharedKey.self) }.value
            finished.yield()
            return await scope.escapeCount
        }
        async let innocent = withSingletons({ $0[SharedKey.self] = "innocent" }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            arrived.yield()
            for await _ in readDone { break }
            return await scope.escapeCount
        }
        let (escapingCount, innocentCount) = try await (escaping, innocent)
        #expect(escapingCount == 0)
        #expect(innocentCount == 0)
        #expect(await UnattributedEscapes.reports[EscapedRead(keyName: "shared")] == 1)
    }

    @Test func theTraitReportsAnAttributedEscapeAsAFailureAtTheTrait() async throws {
        await Self.expectTheirEscapes()
        let trait = SingletonsTrait.singletons { $0[TraitKey.self] = "replaced" }
        let test = try #require(Test.current)
        let (go, start) = AsyncStream.makeStream(of: Void.self)
        let early = Task {
            for await _ in go { break }
            _ = await Self.read(TraitKey.self)
        }
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                start.yield()
                await early.value
            }
        } matching: { issue in
            issue.severity == .error && "\(issue.kind)".hasPrefix("Caught error: appSingletons.trait was read")
                && issue.sourceLocation?.fileID.hasSuffix("EscapedReadTests.swift") == true
        }
    }

    /// A detached read while only this test's trait is active (what `--filter` runs) fails no test, as in a full
    /// run: whether other tests run beside it changes nothing.
    @Test func theTraitDoesNotFailATestForADetachedReadEvenAlone() async throws {
        await Self.expectTheirEscapes()
        let trait = SingletonsTrait.singletons { $0[AloneTraitKey.self] = "replaced" }
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            _ = await Task.detached { await Self.read(AloneTraitKey.self) }.value
        }
        #expect(await UnattributedEscapes.reports[EscapedRead(keyName: "aloneTrait")] == 1)
    }

    /// The issue's scenario: test A escapes while test B, with its own override of the same key and no escape,
    /// runs beside it. Neither fails: the read cannot be told apart from one of B's.
    @Test func theTraitNeverFailsATestForAnotherTestsEscape() async throws {
        await Self.expectTheirEscapes()
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
        #expect(await UnattributedEscapes.reports[EscapedRead(keyName: "parallelTrait")] == 1)
    }
}

extension AppSingletons {
    /// An accessor whose name is not its key's derived name.
    var forecast: String {
        get { self[EscapedReadTests.ForecastSourceKey.self] }
        set { self[EscapedReadTests.ForecastSourceKey.self] = newValue }
    }
}
