/// Runs `operation` with some of the shared managers replaced, for its task tree only.
///
/// `configure` receives a copy of the current container (so scopes nest) and replaces managers on it:
///
/// ```swift
/// try await withSingletons({ $0.longTaskManager = LongTaskManagerMock() }) {
///     try await appSingletons.longTaskManager.doLongTask()  // the mock's
/// }
/// ```
///
/// The replacement is carried by a task-local value: `operation`, its child tasks and every `Task {}` started
/// inside it see the replaced managers, while other tasks (another test running in parallel) keep seeing theirs.
/// When `operation` returns or throws, every manager the scope replaced is shut down (``ManagedSingleton/shutdown()``),
/// so work it started inside the scope is cancelled and awaited before this function returns.
///
/// - Parameters:
///   - configure: Replaces managers on the scope's container; runs on ``RegistryActor``.
///   - isolation: The actor `operation` runs on; the caller's by default.
///   - operation: The code that sees the replaced managers.
/// - Returns: What `operation` returns.
public func withSingletons<R>(
    _ configure: @RegistryActor (AppSingletons) throws -> Void,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async rethrows -> R {
    let scope = try await SingletonScope.enter(configure)
    do {
        let result = try await SingletonScope.$current.withValue(scope, operation: operation, isolation: isolation)
        await scope.exit()
        return result
    } catch {
        await scope.exit()
        throw error
    }
}
