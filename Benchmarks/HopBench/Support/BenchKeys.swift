import SingletonRegistry

/// The manager the `registry.read` cases read: a non-final class on the registry's actor, as users declare theirs.
@RegistryActor
class BenchManager {
    nonisolated init() {}
}

/// The key of ``BenchManager``, declared outside the registry's module like any user key.
enum BenchManagerKey: SingletonKey {
    static var liveValue: BenchManager { BenchManager() }
}

extension AppSingletons {
    /// The shared ``BenchManager``.
    var benchManager: BenchManager {
        get { self[BenchManagerKey.self] }
        set { self[BenchManagerKey.self] = newValue }
    }
}
