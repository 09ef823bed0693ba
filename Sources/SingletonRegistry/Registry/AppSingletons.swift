/// The container of the process's shared managers, isolated to ``RegistryActor``.
///
/// Code reaches the managers through the global ``appSingletons``. ``AppSingletons()`` holds the live shared
/// instances; tests either assign a container of mocks to ``appSingletons`` (process-wide) or, safely in parallel,
/// override managers for one task tree with ``withSingletons(_:isolation:operation:)`` or the `.singletons` test
/// trait of `SingletonRegistryTesting`.
@RegistryActor
public final class AppSingletons {
    private var location: LocationManager
    private var longTask: LongTaskManager
    /// Whether this container belongs to an override scope made by ``withSingletons(_:isolation:operation:)``.
    let isScoped: Bool

    /// Creates a container; each manager not given is the live shared instance.
    public init(locationManager: LocationManager? = nil, longTaskManager: LongTaskManager? = nil) {
        self.location = locationManager ?? .live
        self.longTask = longTaskManager ?? .live
        self.isScoped = false
    }

    /// A copy of `parent` for an override scope, so that replacing a manager leaves `parent` unchanged.
    init(scopedCopyOf parent: AppSingletons) {
        self.location = parent.location
        self.longTask = parent.longTask
        self.isScoped = true
    }

    /// The shared ``LocationManager``.
    public var locationManager: LocationManager {
        get {
            if !isScoped, SingletonScope.activeCount != 0 { SingletonScope.noteUnscopedRead(of: .locationManager) }
            return location
        }
        set { location = newValue }
    }

    /// The shared ``LongTaskManager``.
    public var longTaskManager: LongTaskManager {
        get {
            if !isScoped, SingletonScope.activeCount != 0 { SingletonScope.noteUnscopedRead(of: .longTaskManager) }
            return longTask
        }
        set { longTask = newValue }
    }

    /// The managers in dependency order: each may use the ones before it (a survey job reads locations).
    public var managers: [(key: SingletonKey, manager: any ManagedSingleton)] {
        [(.locationManager, location), (.longTaskManager, longTask)]
    }

    /// The manager under `key`, read without recording an escape (the registry's own bookkeeping).
    func manager(for key: SingletonKey) -> any ManagedSingleton {
        switch key {
        case .locationManager: location
        case .longTaskManager: longTask
        }
    }

    /// Whether the manager under `key` is the live shared instance rather than a replacement.
    public func isLive(_ key: SingletonKey) -> Bool {
        switch key {
        case .locationManager: location === LocationManager.live
        case .longTaskManager: longTask === LongTaskManager.live
        }
    }

    /// Starts every manager in dependency order, awaiting each.
    ///
    /// If one fails to start, the managers already started are shut down in reverse order and the error is
    /// rethrown, so a failed start leaves nothing running.
    public func start() async throws {
        var started: [any ManagedSingleton] = []
        for (_, manager) in managers {
            do {
                try await manager.start()
                started.append(manager)
            } catch {
                for manager in started.reversed() { await manager.shutdown() }
                throw error
            }
        }
    }

    /// Shuts every manager down in reverse dependency order, awaiting each before the next.
    public func shutdown() async {
        for (_, manager) in managers.reversed() { await manager.shutdown() }
    }
}
