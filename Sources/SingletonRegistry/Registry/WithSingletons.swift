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
    // On the registry's actor, entering and leaving are synchronous calls: no hop, there or back. Off it, one hop
    // each: the scope ends on the actor, between two of its jobs, so no job sees it end in its middle.
    let onActor = RegistryActor.isShared(isolation)
    let scope: SingletonScope
    if onActor {
        switch ScopeTable.enter(configure, isolation: isolation) {
        case .success(let entered): scope = entered
        case .failure(let error): try ScopeTable.rethrow(error, from: configure)
        }
    } else {
        scope = try await SingletonScope.enter(configure)
    }
    do {
        let result = try await SingletonScope.tokenLocal.withValue(
            scope.token, operation: operation, isolation: isolation)
        await leave(scope, onActor: onActor, isolation: isolation)
        return result
    } catch {
        await leave(scope, onActor: onActor, isolation: isolation)
        throw error
    }
}

/// Ends `scope` and shuts down what it held: synchronously on the actor when the caller runs there, else in one hop.
@inlinable
func leave(_ scope: SingletonScope, onActor: Bool, isolation: isolated (any Actor)?) async {
    if onActor {
        if ScopeTable.end(scope, isolation: isolation) { await scope.shutDownEnded() }
    } else {
        await scope.leave()
    }
}

/// Runs the synchronous `operation` on ``RegistryActor`` with some of the shared values replaced, for the calling
/// task only: the scope of ``withSingletons(_:isolation:operation:)`` without a suspension point, for code on the
/// actor that builds something from the replaced values.
///
/// ```swift
/// @RegistryActor func makeReport() -> Report {
///     withSingletons({ $0.clock = TestClock() }) { Report(clock: appSingletons.clock) }
/// }
/// ```
///
/// Chosen where the caller cannot suspend: an asynchronous caller gets the asynchronous form, whatever its body.
/// The scope ends when `operation` returns: a task it started reads the replacements only if it runs before then;
/// after, it reads as a task that outlives an asynchronous scope does (CONCURRENCY.md, "A task that outlives its
/// scope"). A replaced value that
/// has a lifecycle (``ManagedSingleton``) is shut down when the scope ends, in a task the scope starts and does not
/// wait for: use the asynchronous form where the scope must not return before such a value has stopped.
///
/// - Parameters:
///   - configure: Replaces values on the scope's container.
///   - operation: The code that sees the replaced values.
/// - Returns: What `operation` returns.
@RegistryActor
@inlinable
@_disfavoredOverload
public func withSingletons<R>(
    _ configure: @RegistryActor (AppSingletons) throws -> Void,
    operation: () throws -> R
) rethrows -> R {
    let scope = try SingletonScope.enter(configure)
    let result: R
    do {
        result = try SingletonScope.tokenLocal.withValue(scope.token, operation: operation)
    } catch {
        SingletonScope.leaveSynchronously(scope)
        throw error
    }
    SingletonScope.leaveSynchronously(scope)
    return result
}
