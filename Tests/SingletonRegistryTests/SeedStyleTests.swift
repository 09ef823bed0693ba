import GNSSLocation
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// The seed's original test, ported to Swift Testing: replace the process-wide value, then check the mock ran.
@Suite(.hangBound) struct SeedStyleTests {
    @Test @RegistryActor
    func mockReplacesTheSharedLongTaskManager() async throws {
        let mock = RecordingLongTaskManager()
        appSingletons.longTaskManager = mock
        defer { appSingletons.restoreLiveValue(of: LongTaskManagerKey.self) }

        let manager = appSingletons.longTaskManager
        #expect(manager === mock)
        #expect(!manager.isTaskDone)
        try await manager.doLongTask()
        #expect(mock.isTaskDone)
        #expect(mock.doLongTaskCalls == 1)
    }

    @Test @RegistryActor
    func everyContainerHoldsTheSameLiveManagers() async {
        await withLiveSingletons { Self.checkEveryContainerHoldsTheSameLiveManagers() }
    }

    @RegistryActor
    static func checkEveryContainerHoldsTheSameLiveManagers() {
        let first = AppSingletons()
        let second = AppSingletons()
        #expect(first.longTaskManager === second.longTaskManager)
        #expect(first.locationManager === second.locationManager)
        #expect(
            first.entries == [
                SingletonEntry(name: "longTaskManager", isLive: true),
                SingletonEntry(name: "locationManager", isLive: true),
            ])
        let replaced = AppSingletons { $0.longTaskManager = RecordingLongTaskManager() }
        #expect(replaced.entries == [SingletonEntry(name: "longTaskManager", isLive: false)])
        #expect(replaced.longTaskManager !== first.longTaskManager)
    }
}

/// A container made by hand inside a test follows the rules of the test's scope.
@Suite struct HandMadeContainerTests {
    @Test(.singletons { $0.longTaskManager = RecordingLongTaskManager(tag: 7) })
    @RegistryActor
    func aHandMadeContainerReadsTheTestsReplacement() {
        let handMade = AppSingletons()
        #expect((handMade.longTaskManager as? RecordingLongTaskManager)?.tag == 7)
        #expect(handMade.entries.isEmpty, "it holds nothing it did not make or set itself")
        let own = RecordingLongTaskManager(tag: 8)
        handMade.longTaskManager = own
        #expect(handMade.longTaskManager === own)
        #expect((appSingletons.longTaskManager as? RecordingLongTaskManager)?.tag == 7)
    }
}
