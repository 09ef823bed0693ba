import GNSSLocation
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// Overrides are per task tree: tests running in parallel each see only their own mock.
@Suite(.hangBound) struct ParallelOverrideTests {
    static let rendezvous = PairRendezvous()

    /// What one case sees of `appSingletons.longTaskManager` after installing its own mock.
    struct Sightings: Sendable {
        var inScope: Int
        var inUnstructuredTask: Int
        var inChildTasks: [Int]
    }

    /// Reads the shared long-task manager's tag from the scope, a `Task {}` and a task group, after a rendezvous
    /// that makes this case's window overlap another case's.
    static func sightings(rendezvous: PairRendezvous) async -> Sightings {
        await rendezvous.arrive()
        let inScope = await tagOfSharedManager()
        let inTask = await Task { await tagOfSharedManager() }.value
        let inChildren = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 { group.addTask { await tagOfSharedManager() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        return Sightings(inScope: inScope, inUnstructuredTask: inTask, inChildTasks: inChildren)
    }

    @RegistryActor
    static func sharedManager() -> LongTaskManager {
        appSingletons.longTaskManager
    }

    @RegistryActor
    static func tagOfSharedManager() -> Int {
        (appSingletons.longTaskManager as? RecordingLongTaskManager)?.tag ?? -1
    }

    @Test("Each of 64 parallel cases sees only its own override", arguments: 0..<64)
    func taskLocalOverrideIsIsolated(tag: Int) async throws {
        Self.rendezvous.enter()
        defer { Self.rendezvous.leave() }
        let mock = RecordingLongTaskManager(tag: tag)
        let seen = await withSingletons({ $0.longTaskManager = mock }) {
            await Self.sightings(rendezvous: Self.rendezvous)
        }
        #expect(seen.inScope == tag)
        #expect(seen.inUnstructuredTask == tag)
        #expect(seen.inChildTasks == [tag, tag, tag, tag])
        // Identity, not the tag: another suite may install a mock of its own process-wide meanwhile.
        #expect(await Self.sharedManager() !== mock, "the override must end with its scope")
    }

    @Test(.singletons { $0.longTaskManager = RecordingLongTaskManager(tag: 1_001) })
    func traitOverridesForTheTest() async {
        #expect(await Self.tagOfSharedManager() == 1_001)
        #expect(await Task { await Self.tagOfSharedManager() }.value == 1_001)
    }

    /// The same check as ``taskLocalOverrideIsIsolated(tag:)``, run with plain global assignment instead of a
    /// task-local override: it must catch the cross-talk, or the parallel test above would prove nothing.
    @Test func theSameCheckCatchesPlainGlobalAssignment() async {
        let rendezvous = PairRendezvous()
        let mismatches = await withTaskGroup(of: Bool.self) { group in
            for tag in 0..<64 {
                rendezvous.enter()
                group.addTask {
                    defer { rendezvous.leave() }
                    await Self.assignProcessWide(tag: 10_000 + tag)
                    let seen = await Self.sightings(rendezvous: rendezvous)
                    let own = 10_000 + tag
                    return seen.inScope != own || seen.inUnstructuredTask != own
                        || seen.inChildTasks.contains { $0 != own }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        await Self.restoreProcessWide()
        #expect(mismatches >= 32, "global assignment leaks mocks between concurrent cases")
    }

    @RegistryActor
    static func assignProcessWide(tag: Int) {
        appSingletons.longTaskManager = RecordingLongTaskManager(tag: tag)
    }

    @RegistryActor
    static func restoreProcessWide() {
        appSingletons.restoreLiveValue(of: LongTaskManagerKey.self)
    }

    @Test func scopesNest() async {
        await withSingletons({ $0.longTaskManager = RecordingLongTaskManager(tag: 1) }) {
            await withSingletons({ $0.locationManager = LocationManager() }) {
                #expect(await Self.tagOfSharedManager() == 1, "an inner scope inherits what it does not replace")
            }
            await withSingletons({ $0.longTaskManager = RecordingLongTaskManager(tag: 2) }) {
                #expect(await Self.tagOfSharedManager() == 2)
            }
            #expect(await Self.tagOfSharedManager() == 1)
        }
    }
}

/// A scope's replacements end with the scope, also for a task that outlives it.
@Suite(.hangBound) struct ScopeLifetimeTests {
    /// The straggler reads the manager through an accessor of its own, so that the read it makes after its scope
    /// ended on purpose is counted, not reported for the run.
    @RegistryActor static func stragglersTag() -> Int {
        (appSingletons.stragglersLongTaskManager as? RecordingLongTaskManager)?.tag ?? 0
    }

    @Test func aTaskThatOutlivesItsScopeSeesTheProcessWideManagers() async {
        await RegistryActor.run { UnattributedEscapes.expect("stragglersLongTaskManager") }
        let (release, go) = AsyncStream.makeStream(of: Void.self)
        let straggler = await withSingletons({ $0.longTaskManager = RecordingLongTaskManager(tag: 77) }) {
            Task {
                for await _ in release { break }
                return await Self.stragglersTag()
            }
        }
        go.yield()
        #expect(await straggler.value != 77)
        #expect(await UnattributedEscapes.readsAfterScopeEnded["stragglersLongTaskManager"] == 1)
    }
}

extension AppSingletons {
    /// `longTaskManager`, under another accessor name.
    var stragglersLongTaskManager: LongTaskManager { self[LongTaskManagerKey.self] }
}
