/// The isolation domain of the registry and of the managers it holds.
///
/// A dedicated global actor rather than `@MainActor`: the daemon has no UI, and on Linux a hop to the main actor
/// wakes the main thread, which costs tens of microseconds; a hop to this actor runs on the cooperative pool and
/// costs tens of nanoseconds (see CONCURRENCY.md).
@globalActor
public actor RegistryActor {
    /// The one instance all `@RegistryActor` code is isolated to.
    public static let shared = RegistryActor()

    /// Runs `body` on the registry's actor and returns what it returns: several reads and calls in one hop.
    ///
    /// ```swift
    /// let (tasks, clock) = await RegistryActor.run { (appSingletons.longTaskManager, appSingletons.clock) }
    /// ```
    public static func run<T: Sendable, E: Error>(_ body: @RegistryActor () throws(E) -> T) async throws(E) -> T {
        try await body()
    }
}

extension RegistryActor {
    /// Whether `isolation`, the actor the caller is isolated to, is this one: then the caller runs on its executor,
    /// as an `isolated` parameter guarantees, and may call its isolated code synchronously (``ScopeTable``'s
    /// `enter(_:isolation:)` and `end(_:isolation:)`).
    @inlinable
    static func isShared(_ isolation: isolated (any Actor)?) -> Bool {
        guard let isolation else { return false }
        return isolation === shared
    }
}
