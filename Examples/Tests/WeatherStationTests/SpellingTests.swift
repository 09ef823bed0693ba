import SingletonRegistry
import SingletonRegistryTesting
import Testing
import WeatherStation

/// Every spelling of a read a user writes, from every kind of code, reads the test's values on the registry's actor.
/// CI runs this package in debug, and in release under the thread sanitizer.
@Suite struct SpellingTests {
    static let configured = StationConfiguration(name: "spelling", maxTripPoints: 3)

    @Test(.singletons { $0.stationConfiguration = SpellingTests.configured })
    func fromANonisolatedTest() async {
        #expect(await appSingletons.stationConfiguration == Self.configured)
        #expect(await appSingletons[StationConfigurationKey.self] == Self.configured)
        #expect(await StationReport().configuration == Self.configured)
        #expect(await appSingletons.entries.contains(SingletonEntry(name: "stationConfiguration", isLive: false)))
    }

    @Test(.singletons { $0.stationConfiguration = SpellingTests.configured })
    func fromChildAndUnstructuredTasks() async {
        let fromTask = await Task { await appSingletons.stationConfiguration }.value
        #expect(fromTask == Self.configured)
        let fromGroup = await withTaskGroup(of: StationConfiguration.self) { group in
            for _ in 0..<4 { group.addTask { await appSingletons.stationConfiguration } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(fromGroup == Array(repeating: Self.configured, count: 4))
    }

    /// A detached task does not inherit a test's scope: it reads the process-wide value, on the actor all the same.
    /// (It reads a key no test here replaces: a detached read of a key that a test running beside it replaced would
    /// be reported, once for the run, as a warning.)
    @Test func fromADetachedTask() async {
        let done = await Task.detached { await appSingletons.longTaskManager.isTaskDone }.value
        #expect(!done)
    }

    @Test(.singletons { $0.stationConfiguration = SpellingTests.configured })
    @RegistryActor
    func fromRegistryActorCode() {
        #expect(appSingletons.stationConfiguration == Self.configured)
        #expect(appSingletons[StationConfigurationKey.self] == Self.configured)
        #expect(StationReport().configuration == Self.configured)
    }
}
