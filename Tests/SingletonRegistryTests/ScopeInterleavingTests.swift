import Dispatch
import SingletonRegistry
import SingletonRegistryTesting
import Synchronization
import SystemCalls
import TestSupport
import Testing

/// Every read stays on its own scope, whatever runs between a scope's end and the jobs of its tasks: the four ways
/// a read or a store once crossed from one scope to another (issue 44, findings 1–4), each repeated many times so
/// that the interleavings that broke them come up; kept small, since they hold the registry's actor, which every
/// other test of the run needs (scripts/scope-race hammers the same interleavings at length, in its own process).
@Suite(.hangBound) struct ScopeInterleavingTests {
    enum TagKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }

    /// A value with a lifecycle that counts its shutdowns.
    @RegistryActor final class Counted: ManagedSingleton {
        var shutdowns = 0
        nonisolated init() {}
        func start() async throws {}
        func shutdown() async { shutdowns += 1 }
    }

    enum CountedKey: SingletonKey {
        static var liveValue: Counted { Counted() }
        static var testValue: Counted { Counted() }
    }

    /// Whether a job has started.
    final class Started: Sendable {
        let flag = Atomic<Bool>(false)
    }

    /// Holds a weak and a strong reference to a scope's container, taken in its configure closure.
    @RegistryActor final class Captured {
        weak var weakly: AppSingletons?
        var strongly: AppSingletons?
    }

    /// Finding 1: a task of a scope entered from nonisolated code writes on the actor and reads back in the same
    /// job while the scope ends; it always reads what it wrote.
    @Test func endingAScopeNeverChangesWhatARunningJobReadsOrLosesWhatItWrote() async {
        var lost = 0
        for trial in 0..<100 {
            var job: Task<[String], Never>?
            let started = Started()
            await withSingletons({ $0[TagKey.self] = "scope" }) {
                job = Task { @RegistryActor in
                    started.flag.store(true, ordering: .releasing)
                    var seen: [String] = []
                    for step in 0..<32 {
                        appSingletons[TagKey.self] = "\(trial).\(step)"
                        seen.append(appSingletons[TagKey.self] == "\(trial).\(step)" ? "kept" : "lost")
                    }
                    return seen
                }
                // The scope ends once the job runs: the end comes inside the job, unless it waits for the job.
                while !started.flag.load(ordering: .acquiring) { await Task.yield() }
            }
            if let job, await job.value.contains("lost") { lost += 1 }
        }
        #expect(lost == 0, "trials in which a job lost what it wrote as its scope ended")
    }

    /// Finding 2: a weak or strong reference to a scope's container, kept past the scope, never reads the values of
    /// a scope entered after it.
    @Test @RegistryActor func aReferenceThatOutlivesItsScopeNeverReadsAnotherScopesValues() async {
        for trial in 0..<50 {
            let captured = Captured()
            await withSingletons({
                captured.weakly = $0
                if trial.isMultiple(of: 2) { captured.strongly = $0 }
                $0[TagKey.self] = "first"
            }) {}
            await withSingletons({ $0[TagKey.self] = "second \(trial)" }) {
                #expect(captured.weakly?[TagKey.self] != "second \(trial)")
                #expect(captured.strongly?[TagKey.self] != "second \(trial)")
                #expect(captured.strongly?[TagKey.self] != "first", "an ended scope's values are no one's")
            }
        }
    }

    /// Finding 3: a task started in scope S that enters a nested scope N reads none of S's values once S has
    /// returned, and never a value S shut down.
    @Test func aTaskThatOutlivesItsScopeReadsNoneOfItsValuesThroughANestedScope() async {
        let replaced = await RegistryActor.run { Counted() }
        let (entered, enteredSignal) = AsyncStream.makeStream(of: Void.self)
        let (go, goSignal) = AsyncStream.makeStream(of: Void.self)
        var inner: Task<(same: Bool, shutdowns: Int), Never>?
        await withSingletons({ $0[CountedKey.self] = replaced }) {
            inner = Task {
                await withSingletons({ $0[TagKey.self] = "nested" }) {
                    enteredSignal.yield()
                    for await _ in go { break }
                    return await RegistryActor.run {
                        let read = appSingletons[CountedKey.self]
                        return (read === replaced, read.shutdowns)
                    }
                }
            }
            for await _ in entered { break }
        }
        #expect(await replaced.shutdowns == 1, "S shut its replacement down when it returned")
        goSignal.yield()
        let read = await inner?.value
        #expect(read?.same == false, "the nested scope does not read S's value after S returned")
        #expect(read?.shutdowns == 0, "no read is handed a value that was shut down")
    }

    /// Finding 4: a value stored by a task of a scope while the scope ends is shut down exactly once if the scope
    /// held it, and never twice.
    @Test func aValueStoredAsItsScopeEndsIsShutDownAtMostOnce() async {
        var values: [Counted] = []
        var stores: [Task<Void, Never>] = []
        for _ in 0..<100 {
            let value = await RegistryActor.run { Counted() }
            values.append(value)
            await withSingletons({ $0[TagKey.self] = "scope" }) {
                stores.append(Task { @RegistryActor in appSingletons[CountedKey.self] = value })
            }
        }
        for store in stores { await store.value }
        let shutdowns = await RegistryActor.run { values.map(\.shutdowns) }
        #expect(shutdowns.allSatisfy { $0 <= 1 }, "a value shut down twice")
    }

    /// A value set through a reference to a scope's container after the scope ended is refused and reported.
    @Test @RegistryActor func aValueSetOnAnEndedScopeIsRefusedAndReported() async {
        let captured = Captured()
        await withSingletons({ captured.strongly = $0 }) {}
        withKnownIssue {
            captured.strongly?[TagKey.self] = "late"
        } matching: { issue in
            issue.singletonReport?.hasPrefix("appSingletons.tag was set on an override scope that had already ended")
                == true
        }
        #expect(captured.strongly?[TagKey.self] == "test", "the ended scope holds nothing new")
    }
}

/// Finding 5: in a test process, code that carries neither a test nor a scope reads the key's test value: never the
/// live one.
@Suite(.hangBound) struct NoLiveValueInATestProcessTests {
    /// Counts how often its live value was made: never, in a test process.
    @RegistryActor static var liveMade = 0
    enum GuardedKey: SingletonKey {
        static var liveValue: String {
            NoLiveValueInATestProcessTests.liveMade += 1
            return "live"
        }
        static var testValue: String { "test" }
    }

    @RegistryActor static func read() -> String { appSingletons[GuardedKey.self] }

    @Test(.singletons { $0[GuardedKey.self] = "replaced" })
    func aDetachedTaskAThreadAndACallbackReadTheTestValue() async {
        // The escape report is what EscapedReadTests checks; here only the value read matters.
        await RegistryActor.run { UnattributedEscapes.expect(GuardedKey.name) }
        let detached = await Task.detached { await Self.read() }.value
        let callback = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            DispatchQueue.global().async { Task { done.resume(returning: await Self.read()) } }
        }
        let thread = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            do {
                try System.startThread(named: "reader") { Task { done.resume(returning: await Self.read()) } }
            } catch {
                done.resume(returning: "no thread: \(error)")
            }
        }
        #expect([detached, callback, thread] == ["test", "test", "test"])
        #expect(await Self.liveMade == 0, "no live value made in a test process")
    }

    @Test func aTestWithoutTheTraitReadsTheTestValueToo() async {
        await RegistryActor.run { UnattributedEscapes.expect(GuardedKey.name) }
        #expect(await Self.read() == "test")
        #expect(await Task.detached { await Self.read() }.value == "test")
        #expect(await Self.liveMade == 0)
    }
}
