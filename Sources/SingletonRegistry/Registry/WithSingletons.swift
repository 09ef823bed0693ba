/// Runs `operation` with some of the shared values replaced, for its task tree only.
///
/// `configure` receives the scope's container, which stands in front of the current one (so scopes nest; entering
/// one copies nothing), and replaces values on it:
///
/// ```swift
/// try await withSingletons({ $0.longTaskManager = RecordingLongTaskManager() }) {
///     try await appSingletons.longTaskManager.doLongTask()  // the replacement's
/// }
/// ```
///
/// The replacement is carried by a task-local value: `operation`, its child tasks and every `Task {}` started
/// inside it see the replaced values, while other tasks (another test running in parallel) keep seeing theirs.
/// When `operation` returns or throws, every replaced value that has a lifecycle is shut down
/// (``ManagedSingleton/shutdown()``), so work it started inside the scope is cancelled and awaited before this
/// function returns.
///
/// - Parameters:
///   - configure: Replaces values on the scope's container; runs on ``RegistryActor``.
///   - isolation: The actor `operation` runs on; the caller's by default.
///   - operation: The code that sees the replaced values.
/// - Returns: What `operation` returns.
@inlinable
public func withSingletons<R>(
    _ configure: @RegistryActor (AppSingletons) throws -> Void,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> R
) async rethrows -> R {
    let scope = try await SingletonScope.enter(configure)
    do {
        let result = try await SingletonScope.tokenLocal.withValue(
            scope.token, operation: operation, isolation: isolation)
        if await scope.deactivate() { await scope.shutDownReplaced() }
        return result
    } catch {
        if await scope.deactivate() { await scope.shutDownReplaced() }
        throw error
    }
}
