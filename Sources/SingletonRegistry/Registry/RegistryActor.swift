/// The isolation domain of the registry and of the managers it holds.
///
/// A dedicated global actor rather than `@MainActor`: the daemon has no UI, and on Linux a hop to the main actor
/// wakes the main thread, which costs tens of microseconds; a hop to this actor runs on the cooperative pool and
/// costs tens of nanoseconds (see CONCURRENCY.md).
@globalActor
public actor RegistryActor {
    /// The one instance all `@RegistryActor` code is isolated to.
    public static let shared = RegistryActor()

    /// Runs `body` on the registry's actor and returns what it returns: the way to read ``appSingletons`` from code
    /// that is not isolated to `RegistryActor`.
    ///
    /// ```swift
    /// let manager = await RegistryActor.run { appSingletons.longTaskManager }
    /// ```
    public static func run<T: Sendable, E: Error>(_ body: @RegistryActor () throws(E) -> T) async throws(E) -> T {
        try await body()
    }
}
