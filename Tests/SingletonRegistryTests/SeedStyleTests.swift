import SingletonRegistry
import Testing

/// The seed's original test, ported to Swift Testing: replace the process-wide container, then check the mock ran.
@Suite(.timeLimit(.minutes(1))) struct SeedStyleTests {
    @Test @RegistryActor
    func mockReplacesTheSharedLongTaskManager() async throws {
        let mock = LongTaskManagerMock()
        appSingletons = AppSingletons(longTaskManager: mock)
        defer { appSingletons = AppSingletons() }

        let manager = appSingletons.longTaskManager
        #expect(manager === mock)
        #expect(!manager.isTaskDone)
        try await manager.doLongTask()
        #expect(mock.isTaskDone)
        #expect(mock.calls == 1)
    }

    @Test @RegistryActor
    func defaultContainerHoldsTheLiveManagers() {
        let singletons = AppSingletons()
        #expect(singletons.longTaskManager === LongTaskManager.live)
        #expect(singletons.locationManager === LocationManager.live)
        #expect(singletons.isLive(.longTaskManager) && singletons.isLive(.locationManager))
        #expect(!AppSingletons(longTaskManager: LongTaskManagerMock()).isLive(.longTaskManager))
    }
}
