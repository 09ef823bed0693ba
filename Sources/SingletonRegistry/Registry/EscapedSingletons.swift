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
/// has ended no longer sees the scope's values: it reads as code outside the scope (in a test process, the key's
/// test value), and in a test process the read is reported once per accessor, as a warning of the run.
public struct EscapedSingletons: Sendable {
    /// The captured scope's token (``SingletonScope/tokenLocal``); 0 when no scope was active.
    let token: UInt64
    /// In a test process, the test the capturing task ran for: code run by ``yield(_:)`` reads that test's values
    /// even where it carries no scope (a test without the `.singletons` trait).
    let test: SingletonTestIdentity?

    /// Runs `operation` with the captured scope as the current task's or thread's scope, and returns its result.
    public func yield<R>(_ operation: () throws -> R) rethrows -> R {
        guard let test else { return try SingletonScope.tokenLocal.withValue(token, operation: operation) }
        return try SingletonScope.tokenLocal.withValue(token) {
            try SingletonScope.escapedTestLocal.withValue(test, operation: operation)
        }
    }

    /// Runs the asynchronous `operation` with the captured scope as the current task's scope, and returns its
    /// result.
    public func yield<R>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R
    ) async rethrows -> R {
        guard let test else {
            return try await SingletonScope.tokenLocal.withValue(token, operation: operation, isolation: isolation)
        }
        return try await SingletonScope.tokenLocal.withValue(
            token,
            operation: {
                try await SingletonScope.escapedTestLocal.withValue(test, operation: operation, isolation: isolation)
            }, isolation: isolation)
    }
}

/// Captures the calling task's override scope for code that escapes its task tree, and runs `operation` with it.
///
/// A callback on a Dispatch queue, a thread or an event loop inherits no task-local value, so it would read the
/// process-wide values instead of the scope's; ``EscapedSingletons/yield(_:)`` restores the scope there. The
/// capture costs one task-local read.
public func withEscapedSingletons<R, Failure: Error>(
    _ operation: (EscapedSingletons) throws(Failure) -> R
) throws(Failure) -> R {
    try operation(
        EscapedSingletons(
            token: SingletonScope.tokenLocal.get(),
            test: RegistryContext.isTestProcess ? TestValues.context?.currentTest() : nil))
}
