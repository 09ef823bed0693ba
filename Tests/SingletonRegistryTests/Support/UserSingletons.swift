import SingletonRegistry

// Singletons declared the way a user of the registry declares them, one of each style (the clock is the
// registry's own `clock`, declared the same way).

/// A struct of closures: each endpoint can be replaced on its own.
struct WeatherClient: Sendable {
    var forecast: @Sendable (_ city: String) async throws -> String
    var alerts: @Sendable () async -> [String]
}

enum WeatherClientKey: SingletonKey {
    static var liveValue: WeatherClient {
        WeatherClient(forecast: { city in "live forecast for \(city)" }, alerts: { ["live alert"] })
    }
    static var testValue: WeatherClient {
        WeatherClient(forecast: { city in "test forecast for \(city)" }, alerts: { [] })
    }
}

/// A read-only configuration value.
struct ServiceConfiguration: Sendable, Equatable {
    var endpoint: String
    var retries: Int
}

enum ServiceConfigurationKey: SingletonKey {
    static var liveValue: ServiceConfiguration { ServiceConfiguration(endpoint: "https://example.invalid", retries: 3) }
    static var testValue: ServiceConfiguration { ServiceConfiguration(endpoint: "https://test.invalid", retries: 3) }
}

/// A manager with a lifecycle that depends on the long-task manager.
class SyncManager: ManagedSingleton {
    private(set) var isRunning = false
    private(set) var starts = 0
    nonisolated init() {}
    func start() async throws {
        starts += 1
        isRunning = true
    }
    func shutdown() async { isRunning = false }
}

enum SyncManagerKey: SingletonKey {
    static var liveValue: SyncManager { SyncManager() }
    static var dependencies: [any SingletonKey.Type] { [LongTaskManagerKey.self] }
}

extension AppSingletons {
    var weatherClient: WeatherClient {
        get { self[WeatherClientKey.self] }
        set { self[WeatherClientKey.self] = newValue }
    }
    var serviceConfiguration: ServiceConfiguration {
        get { self[ServiceConfigurationKey.self] }
        set { self[ServiceConfigurationKey.self] = newValue }
    }
    var syncManager: SyncManager {
        get { self[SyncManagerKey.self] }
        set { self[SyncManagerKey.self] = newValue }
    }
}
