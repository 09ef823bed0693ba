/// The override scope of a task, captured so that code which escapes the task tree (a callback on a Dispatch queue,
/// a thread, an event loop) reads the scope's values; made by ``withEscapedSingletons(_:)``.
///
/// Code inside ``yield(_:)`` reads through the same accessors as everywhere, `await appSingletons.weather`, and the
/// tasks it starts (`Task {}`) carry the scope too:
///
/// ```swift
/// withEscapedSingletons { escaped in
///     queue.async {
///         escaped.yield {
///             Task { await appSingletons.weather.forecast("Oslo") }  // the scope's weather
///         }
///     }
/// }
/// ```
///
/// In a test, the values the test did not replace read as its test values there too. A capture used after its scope
/// has ended no longer sees the scope's values: in a test, such a read is reported, never silently made.
public struct EscapedSingletons: Sendable {
    /// The captured scope's token (``SingletonScope/tokenLocal``); 0 when no scope was active.
    let token: UInt64

    /// Runs `operation` with the captured scope as the current task's or thread's scope, and returns its result.
    public func yield<R>(_ operation: () throws -> R) rethrows -> R {
        try SingletonScope.tokenLocal.withValue(token, operation: operation)
    }

    /// Runs the asynchronous `operation` with the captured scope as the current task's scope, and returns its
    /// result.
    public func yield<R>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R
    ) async rethrows -> R {
        try await SingletonScope.tokenLocal.withValue(token, operation: operation, isolation: isolation)
    }
}

/// Captures the calling task's override scope for code that escapes its task tree, and runs `operation` with it.
///
/// A callback on a Dispatch queue, a thread or an event loop inherits no task-local value, so it would read the
/// process-wide values instead of the scope's; ``EscapedSingletons/yield(_:)`` restores the scope there. The
/// capture costs one task-local read.
public func withEscapedSingletons<R>(_ operation: (EscapedSingletons) throws -> R) rethrows -> R {
    try operation(EscapedSingletons(token: SingletonScope.tokenLocal.get()))
}
