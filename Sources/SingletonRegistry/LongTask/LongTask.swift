/// A job for ``LongTaskManager``: a name and the work, which runs off ``RegistryActor``.
///
/// The work receives a ``TaskProgress`` to report how far it got, and should check `Task.isCancelled` (or call
/// `try Task.checkCancellation()`) between steps so that ``LongTaskManager/cancel()`` stops it promptly.
public struct LongTask<Output: Sendable>: Sendable {
    /// Identifies the job: a ``LongTaskManager/run(_:)`` of a job with the name of the running one joins that run.
    public var name: String
    /// The work itself. `@concurrent`: it runs on the cooperative pool, never on the registry's actor, whatever the
    /// caller's isolation and whatever the module's default for nonisolated async functions (SE-0461).
    public var work: @concurrent @Sendable (TaskProgress) async throws -> Output

    /// Creates a job.
    public init(name: String, work: @escaping @concurrent @Sendable (TaskProgress) async throws -> Output) {
        self.name = name
        self.work = work
    }
}
