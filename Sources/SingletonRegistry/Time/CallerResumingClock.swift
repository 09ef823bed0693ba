/// A clock whose sleepers resume on the executor they slept on, with no hop through the global executor.
///
/// `Clock.sleep(until:tolerance:)` is a concurrent requirement: a sleeper isolated to ``RegistryActor`` wakes on
/// the global executor and only then hops back to the actor, at a moment nobody can observe. A manual clock that
/// conforms here is slept on through ``sleepResumingCaller(for:)`` instead (see `Clock.sleepOnCaller(until:)`), so
/// that waking a sleeper enqueues it on the sleeper's own actor at once, where a later job of the waker runs only
/// after it.
package protocol CallerResumingClock<Duration>: Clock {
    /// Suspends for `duration` of this clock's time and resumes on the caller's executor; throws
    /// `CancellationError` when the task is cancelled first.
    nonisolated(nonsending) func sleepResumingCaller(for duration: Duration) async throws
}
