/// A job for ``LongTaskManager``: a name, the parameters it was asked for, and the work, which runs off
/// ``RegistryActor``.
///
/// Two jobs are the *same job* when their names, their parameters and their `Output` types are equal: only the same
/// job can join a run (``LongTaskManager/run(_:whenBusy:)``). The work receives a ``TaskProgress`` to report how far
/// it got, and should check `Task.isCancelled` (or call `try Task.checkCancellation()`) between steps so that
/// cancellation stops it promptly.
public struct LongTask<Output: Sendable>: Sendable {
    /// What the job is, in logs and in ``LongTaskState``.
    public var name: String
    /// What the job was asked to do, such as a survey's length: part of what makes two jobs the same job.
    public var parameters: any Hashable & Sendable
    /// The work itself. `@concurrent`: it runs on the cooperative pool, never on the registry's actor, whatever the
    /// caller's isolation and whatever the module's default for nonisolated async functions (SE-0461).
    public var work: @concurrent @Sendable (TaskProgress) async throws -> Output

    /// Creates a job named `name` for `parameters`.
    public init(
        name: String, parameters: some Hashable & Sendable = "",
        work: @escaping @concurrent @Sendable (TaskProgress) async throws -> Output
    ) {
        self.name = name
        self.parameters = parameters
        self.work = work
    }

    /// Whether `other` is the same job: the same name, equal parameters and the same `Output` type.
    public func isSameJob<Other>(as other: LongTask<Other>) -> Bool {
        Output.self == Other.self && name == other.name && LongTaskParameters.equal(parameters, other.parameters)
    }
}
