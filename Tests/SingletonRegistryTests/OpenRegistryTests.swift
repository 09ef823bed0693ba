import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// Keys declared outside the registry get everything its own managers get.
@Suite(.hangBound) struct OpenRegistryTests {
    /// Counts how often its live value was made.
    @RegistryActor static var countedMade = 0
    enum CountedKey: SingletonKey {
        static var liveValue: Int {
            OpenRegistryTests.countedMade += 1
            return 42
        }
    }

    @Test @RegistryActor
    func aLiveValueIsMadeOnItsFirstReadAndOnceForTheProcess() async {
        await withLiveSingletons {
            #expect(Self.countedMade == 0, "nothing made before the first read")
            #expect(AppSingletons()[CountedKey.self] == 42)
            #expect(AppSingletons()[CountedKey.self] == 42)
            #expect(Self.countedMade == 1)
        }
    }

    @Test @RegistryActor
    func theDefaultNameIsTheAccessorsName() {
        #expect(WeatherClientKey.name == "weatherClient")
        #expect(LongTaskManagerKey.name == "longTaskManager")
        #expect(CountedKey.name == "counted")
    }

    @Test(.singletons { $0.weatherClient.forecast = { city in "sunny in \(city)" } })
    func oneEndpointOfAStructOfClosuresIsReplaced() async throws {
        let client = await appSingletons.weatherClient
        #expect(try await client.forecast("Oslo") == "sunny in Oslo")
        #expect(await client.alerts() == [], "the other endpoint is the test value's, not the live one")
    }

    @Test(.singletons { $0.serviceConfiguration.retries = 0 })
    func aConfigurationValueIsReplacedForTheTest() async {
        #expect(
            await appSingletons.serviceConfiguration
                == ServiceConfiguration(endpoint: "https://test.invalid", retries: 0),
            "modified from the test value")
    }

    @Test func aClockIsReplacedForATaskTree() async {
        let suspending = SuspendingClock()
        let seen = await withSingletons({ $0.clock = suspending }) {
            await Task { await appSingletons.clock is SuspendingClock }.value
        }
        #expect(seen)
        #expect(await appSingletons.clock is TestClock, "outside the scope: the test's own test value")
    }

    @Test @RegistryActor
    func seedStyleReplacementWorksForAUserKey() {
        defer { appSingletons.restoreLiveValue(of: ServiceConfigurationKey.self) }
        appSingletons.serviceConfiguration = ServiceConfiguration(endpoint: "seed", retries: 1)
        #expect(appSingletons.serviceConfiguration.endpoint == "seed")
        #expect(appSingletons.entries.contains(SingletonEntry(name: "serviceConfiguration", isLive: false)))
    }

    @Test func aReplacedValueWithALifecycleIsShutDownWhenItsScopeEnds() async throws {
        let sync = SyncManager()
        try await withSingletons({ $0.syncManager = sync }) {
            try await appSingletons.syncManager.start()
            #expect(await sync.isRunning)
        }
        #expect(await !sync.isRunning)
    }

    /// What the registry started and stopped, in order.

    final class JournaledSync: SyncManager {
        let journal: Journal
        init(_ journal: Journal) {
            self.journal = journal
            super.init()
        }
        override func start() async throws {
            journal.write("start sync")
            try await super.start()
        }
        override func shutdown() async {
            journal.write("stop sync")
            await super.shutdown()
        }
    }

    final class JournaledLongTasks: LongTaskManager {
        let journal: Journal
        init(_ journal: Journal) {
            self.journal = journal
            super.init()
        }
        override func start() async throws { journal.write("start long task") }
        override func shutdown() async { journal.write("stop long task") }
    }

    @Test @RegistryActor
    func aUserKeyStartsAfterTheKeyItDependsOn() async throws {
        let journal = Journal()
        let singletons = AppSingletons {
            $0.syncManager = JournaledSync(journal)
            $0.longTaskManager = JournaledLongTasks(journal)
        }
        #expect(singletons.entries.map(\.name) == ["syncManager", "longTaskManager"], "set in this order")
        try await singletons.start()
        await singletons.shutdown()
        #expect(journal.entries == ["start long task", "start sync", "stop sync", "stop long task"])
    }

    @Test(arguments: 0..<32)
    func parallelCasesEachSeeTheirOwnUserValue(index: Int) async {
        let own = ServiceConfiguration(endpoint: "case \(index)", retries: index)
        let seen = await withSingletons({ $0.serviceConfiguration = own }) {
            await withTaskGroup(of: ServiceConfiguration.self) { group in
                for _ in 0..<4 { group.addTask { await appSingletons.serviceConfiguration } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(seen == Array(repeating: own, count: 4))
    }
}
