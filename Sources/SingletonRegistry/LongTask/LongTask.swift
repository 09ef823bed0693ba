/// A job for ``LongTaskManager``: a name and the work, which runs off ``RegistryActor``.
///
/// The work receives a ``TaskProgress`` to report how far it got, and should check `Task.isCancelled` (or call
/// `try Task.checkCancellation()`) between steps so that ``LongTaskManager/cancel()`` stops it promptly.
public struct LongTask<Output: Sendable>: Sendable {
    /// Identifies the job: a ``LongTaskManager/run(_:)`` of a job with the name of the running one joins that run.
    public var name: String
    /// The work itself; nonisolated, so it runs on the cooperative pool, not on the registry's actor.
    public var work: @Sendable (TaskProgress) async throws -> Output

    /// Creates a job.
    public init(name: String, work: @escaping @Sendable (TaskProgress) async throws -> Output) {
        self.name = name
        self.work = work
    }
}
