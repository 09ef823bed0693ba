/// Starting parts in order, the way both the registry's lifecycle (``AppSingletons/start()``) and the daemon's
/// service group do: each after the one before it has started, stopping at the first that fails, so that what
/// started can be shut down in reverse.
package enum OrderedStart {
    /// Starts each of `parts` in order with `start`, on the caller's actor, while `shouldContinue` holds, stopping at
    /// the first that throws.
    /// Returns the parts that started, in order, and the error that stopped it, if one did.
    package static func start<Part, Failure: Error>(
        _ parts: [Part],
        while shouldContinue: () -> Bool = { true },
        isolation: isolated (any Actor)? = #isolation,
        _ start: nonisolated(nonsending) (Part) async throws(Failure) -> Void
    ) async -> (started: [Part], failure: Failure?) {
        var started: [Part] = []
        for part in parts where shouldContinue() {
            do throws(Failure) {
                try await start(part)
                started.append(part)
            } catch {
                return (started, error)
            }
        }
        return (started, nil)
    }
}
