import Observation

/// Runs long jobs one at a time, off the registry's actor, with observable state, progress and cancellation.
///
/// The manager is a non-final class isolated to ``RegistryActor`` rather than an `actor`, so that tests can
/// subclass it with a mock (CONCURRENCY.md explains the choice). Its state is observable three ways:
/// - with the Observation framework (`withObservationTracking`, `Observations`) on ``state``, ``isTaskDone`` and
///   ``progress``;
/// - as an `AsyncSequence` of every transition, in order, from ``stateChanges()``.
///
/// Jobs run one at a time: ``run(_:)`` of a job while another runs waits for it, and a job with the same name as
/// a running or queued one joins that run instead of starting another.
@Observable
@RegistryActor
open class LongTaskManager: ManagedSingleton {

    /// Where the manager is in its current or last job.
    public private(set) var state: LongTaskState = .idle

    /// The job ``doLongTask()`` runs; the daemon sets it to a position survey.
    public var defaultJob: LongTask<Void>?

    /// Whether the last job completed.
    public var isTaskDone: Bool { state.isTaskDone }

    /// The progress of the current or last job (0...1).
    public var progress: Double { state.progress }

    /// A run that is queued or running.
    private struct Run {
        let id: Int
        let name: String
        let task: any Sendable
        let cancel: @Sendable () -> Void
        let wait: @Sendable () async -> Void
    }

    @ObservationIgnored private let changes = Broadcaster<LongTaskState>()
    @ObservationIgnored private var runs: [Run] = []
    @ObservationIgnored private var runningID: Int?
    @ObservationIgnored private var nextID = 0

    /// Creates a manager whose ``doLongTask()`` runs `defaultJob`.
    public nonisolated init(defaultJob: LongTask<Void>? = nil) {
        self._defaultJob = defaultJob
    }

    /// Runs the ``defaultJob``, or joins its run if it runs already.
    ///
    /// - Throws: ``LongTaskError/noDefaultJob`` without a default job; otherwise what the job throws, including
    ///   `CancellationError` when it is cancelled.
    open func doLongTask() async throws {
        guard let defaultJob else { throw LongTaskError.noDefaultJob }
        try await run(defaultJob)
    }

    /// Runs `job` after the jobs before it, or joins the run of a running or queued job with the same name.
    ///
    /// The job's work runs off ``RegistryActor``; the actor stays free to answer state reads while it computes.
    /// Cancelling the calling task does not cancel the job (other callers may await it); use ``cancel()``.
    @discardableResult
    open func run<Output: Sendable>(_ job: LongTask<Output>) async throws -> Output {
        if let joined = runs.last(where: { $0.name == job.name })?.task as? Task<Output, any Error> {
            return try await joined.value
        }
        let id = nextID
        nextID += 1
        let previous = runs.last?.wait
        let task = Task<Output, any Error> {
            await previous?()
            return try await self.execute(job, id: id)
        }
        runs.append(
            Run(
                id: id, name: job.name, task: task, cancel: { task.cancel() },
                wait: { _ = try? await task.value }))
        return try await task.value
    }

    /// Cancels the running job; it ends as ``LongTaskState/cancelled(name:)`` once its work stops.
    open func cancel() {
        runs.first { $0.id == runningID }?.cancel()
    }

    /// Every state transition from now on, starting with the current state, in the order they happen.
    ///
    /// The stream buffers without bound so that no transition is lost; a subscriber that stops iterating is
    /// removed when its stream terminates.
    public func stateChanges() -> AsyncStream<LongTaskState> {
        changes.subscribe(initial: state)
    }

    /// Nothing to start: jobs run on demand.
    open func start() async throws {}

    /// Cancels the running job and every queued one and returns when all of them have ended.
    open func shutdown() async {
        let pending = runs
        for run in pending { run.cancel() }
        for run in pending { await run.wait() }
    }

    private func execute<Output: Sendable>(_ job: LongTask<Output>, id: Int) async throws -> Output {
        defer {
            runs.removeAll { $0.id == id }
            if runningID == id { runningID = nil }
        }
        guard !Task.isCancelled else {
            transition(to: .cancelled(name: job.name))
            throw CancellationError()
        }
        runningID = id
        transition(to: .running(name: job.name, progress: 0))
        do {
            let output = try await job.work(TaskProgress(manager: self, run: id))
            transition(to: Task.isCancelled ? .cancelled(name: job.name) : .finished(name: job.name))
            return output
        } catch {
            let cancelled = error is CancellationError || Task.isCancelled
            transition(
                to: cancelled ? .cancelled(name: job.name) : .failed(name: job.name, message: "\(error)"))
            throw error
        }
    }

    /// Applies a progress report from the run `run`, if it is still the running one.
    func reportProgress(_ fraction: Double, run: Int) {
        guard runningID == run, case .running(let name, let old) = state, old != fraction else { return }
        transition(to: .running(name: name, progress: fraction))
    }

    private func transition(to newState: LongTaskState) {
        state = newState
        changes.send(newState)
    }
}
