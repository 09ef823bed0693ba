import SingletonRegistry
import TestSupport
import Testing

/// `start()` orders values by their keys' declared dependencies, and refuses an order that cannot exist.
@Suite(.hangBound) struct DependencyOrderTests {
    /// A lifecycle participant that writes what happens to it into a shared journal.
    final class Probe: ManagedSingleton {
        let name: String
        let journal: Journal
        nonisolated init(_ name: String, _ journal: Journal) {
            self.name = name
            self.journal = journal
        }
        func start() async throws {
            await Task.yield()
            journal.write("start \(name)")
        }
        func shutdown() async {
            await Task.yield()
            journal.write("stop \(name)")
        }
    }

    /// A value with no lifecycle: held, never started.
    struct Settings: Sendable { var retries = 3 }

    enum DatabaseKey: SingletonKey {
        static var liveValue: Probe { Probe("unused", Journal()) }
    }
    enum CacheKey: SingletonKey {
        static var liveValue: Probe { Probe("unused", Journal()) }
        static var dependencies: [any SingletonKey.Type] { [DatabaseKey.self, SettingsKey.self] }
    }
    enum APIKey: SingletonKey {
        static var liveValue: Probe { Probe("unused", Journal()) }
        static var dependencies: [any SingletonKey.Type] { [CacheKey.self, DatabaseKey.self] }
    }
    enum SettingsKey: SingletonKey {
        static var liveValue: Settings { Settings() }
    }
    enum PingKey: SingletonKey {
        static var liveValue: Probe { Probe("unused", Journal()) }
        static var dependencies: [any SingletonKey.Type] { [PongKey.self] }
    }
    enum PongKey: SingletonKey {
        static var liveValue: Probe { Probe("unused", Journal()) }
        static var dependencies: [any SingletonKey.Type] { [PingKey.self] }
    }

    @Test @RegistryActor
    func dependenciesStartFirstAndStopLastWhateverTheOrderTheyWereSetIn() async throws {
        let journal = Journal()
        let singletons = AppSingletons {
            $0[APIKey.self] = Probe("api", journal)
            $0[SettingsKey.self] = Settings(retries: 5)
            $0[CacheKey.self] = Probe("cache", journal)
            $0[DatabaseKey.self] = Probe("database", journal)
        }
        try await singletons.start()
        await singletons.shutdown()
        #expect(
            journal.entries == [
                "start database", "start cache", "start api", "stop api", "stop cache", "stop database",
            ])
        #expect(singletons[SettingsKey.self].retries == 5, "a value without a lifecycle is held, not started")
    }

    @Test @RegistryActor
    func aCycleIsAnErrorThatNamesItsKeysAndStartsNothing() async throws {
        let journal = Journal()
        let singletons = AppSingletons {
            $0[DatabaseKey.self] = Probe("database", journal)
            $0[PingKey.self] = Probe("ping", journal)
            $0[PongKey.self] = Probe("pong", journal)
        }
        let error = await #expect(throws: SingletonLifecycleError.self) { try await singletons.start() }
        #expect(error == .dependencyCycle(["ping", "pong", "ping"]))
        #expect(error?.description == "singleton dependencies form a cycle: ping -> pong -> ping")
        #expect(journal.entries.isEmpty)
    }

    @Test @RegistryActor
    func aDependencyTheContainerDoesNotHoldIsAnError() async throws {
        try await withLiveSingletons { try await Self.checkADependencyTheContainerDoesNotHoldIsAnError() }
    }

    @RegistryActor
    static func checkADependencyTheContainerDoesNotHoldIsAnError() async throws {
        let journal = Journal()
        let singletons = AppSingletons { $0[CacheKey.self] = Probe("cache", journal) }
        let error = await #expect(throws: SingletonLifecycleError.self) { try await singletons.start() }
        #expect(error == .undeclaredDependency(key: "cache", dependency: "database"))
        #expect(journal.entries.isEmpty)

        singletons[DatabaseKey.self] = Probe("database", journal)
        singletons.declare(SettingsKey.self)
        try await singletons.start()
        #expect(journal.entries == ["start database", "start cache"])
        await singletons.shutdown()
    }

    @Test @RegistryActor
    func declaringAKeyMakesTheContainerHoldItsLiveValue() async {
        await withLiveSingletons { Self.checkDeclaringAKeyMakesTheContainerHoldItsLiveValue() }
    }

    @RegistryActor
    static func checkDeclaringAKeyMakesTheContainerHoldItsLiveValue() {
        let singletons = AppSingletons { $0[CacheKey.self] = Probe("cache", Journal()) }
        #expect(!singletons.holds(SettingsKey.self))
        singletons.declare(SettingsKey.self, CacheKey.self)
        #expect(singletons.holds(SettingsKey.self))
        #expect(
            singletons.entries == [
                SingletonEntry(name: "cache", isLive: false), SingletonEntry(name: "settings", isLive: true),
            ], "declaring a held key changes nothing")
    }

    @Test @RegistryActor
    func aFailedStartStopsOnlyWhatHadStarted() async throws {
        final class Broken: ManagedSingleton {
            func start() async throws { throw CancellationError() }
            func shutdown() async { Issue.record("a value that never started is not shut down") }
        }
        enum BrokenKey: SingletonKey {
            static var liveValue: Broken { Broken() }
            static var dependencies: [any SingletonKey.Type] { [DatabaseKey.self] }
        }
        let journal = Journal()
        let singletons = AppSingletons {
            $0[BrokenKey.self] = Broken()
            $0[DatabaseKey.self] = Probe("database", journal)
        }
        await #expect(throws: CancellationError.self) { try await singletons.start() }
        #expect(journal.entries == ["start database", "stop database"])
    }
}
