import Observation

/// Runs long jobs one at a time, off the registry's actor, with observable state, progress and cancellation.
///
/// The manager is a non-final class isolated to ``RegistryActor`` rather than an `actor`, so that tests can
/// subclass it with a mock (CONCURRENCY.md explains the choice). Its state is observable two ways:
/// - with the Observation framework (`withObservationTracking`, `Observations`) on ``state``, ``isTaskDone`` and
///   ``progress``;
/// - as an `AsyncSequence` of every transition, in order, from ``stateChanges()``.
///
/// Jobs run one at a time, in the order they were asked for. A caller chooses what happens while others run
/// (``LongTaskAdmission``): queue a new run, or join the run of the same job, and otherwise queue or be refused. A run
/// lasts while somebody awaits it: when every caller that started or joined it has been cancelled, it is cancelled.
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

    @ObservationIgnored private let changes = Broadcaster<LongTaskState>()
    @ObservationIgnored private var runs: [any LongTaskRunning] = []
    @ObservationIgnored private var runningID: Int?
    @ObservationIgnored private var nextID = 0

    /// Creates a manager whose ``doLongTask()`` runs `defaultJob`.
    public nonisolated init(defaultJob: LongTask<Void>? = nil) {
        self._defaultJob = defaultJob
    }

    /// Creates a manager with no default job: the initialiser a mock overrides, `nonisolated override init()`.
    public nonisolated init() {
        self._defaultJob = nil
    }

    /// Runs the ``defaultJob``, or joins its run if it runs or waits already.
    ///
    /// - Throws: ``LongTaskError/noDefaultJob`` without a default job; otherwise what ``run(_:whenBusy:)`` throws.
    open func doLongTask() async throws {
        guard let defaultJob else { throw LongTaskError.noDefaultJob }
        try await run(defaultJob, whenBusy: .joinOrQueue)
    }

    /// Runs `job` after the jobs before it, or joins a run of the same job, as `admission` says; returns its output.
    ///
    /// The job's work runs off ``RegistryActor``; the actor stays free to answer state reads while it computes.
    /// Cancelling the calling task stops this caller's wait at once (it throws `CancellationError`), and cancels the
    /// run when no other caller awaits it; ``cancel()`` cancels the running job for everyone.
    ///
    /// - Throws: ``LongTaskError/busy(name:parameters:progress:)`` when `admission` is
    ///   ``LongTaskAdmission/joinOrRefuse`` and another job runs or waits;
    ///   ``LongTaskError/outputMismatch(name:running:requested:)`` when a run with the job's name and parameters
    ///   produces another type; otherwise what the job throws, including `CancellationError` when it is cancelled.
    @discardableResult
    open func run<Output: Sendable>(
        _ job: LongTask<Output>, whenBusy admission: LongTaskAdmission = .queue
    ) async throws -> Output {
        let run = try admit(job, admission)
        let waiter = run.addWaiter()
        return try await withTaskCancellationHandler {
            try await run.value(for: waiter)
        } onCancel: {
            Task { @RegistryActor in run.removeWaiter(waiter) }
        }
    }

    /// Cancels the running job; it ends as ``LongTaskState/cancelled(name:)`` once its work stops.
    open func cancel() {
        runs.first { $0.id == runningID }?.cancel()
    }

    /// Every state transition from now on, starting with the current state, in the order they happen.
    ///
    /// The stream buffers without bound so that no transition is lost; a subscriber that stops iterating is
    /// removed when its stream terminates. The stream finishes when the manager shuts down (``shutdown()``, which a
    /// subclass that overrides it calls through `super`), after the states of the jobs it cancelled.
    ///
    /// This is the way for code that is not on ``RegistryActor`` to follow the manager:
    ///
    /// ```swift
    /// for await state in await appSingletons.longTaskManager.stateChanges() { print(state) }
    /// ```
    ///
    /// (Swift 6.3.1 crashes while compiling `Observations { @RegistryActor in manager.isTaskDone }` written in
    /// nonisolated code; in `@RegistryActor` code, `Observations` and `withObservationTracking` work.)
    public func stateChanges() -> AsyncStream<LongTaskState> {
        changes.subscribe(initial: state)
    }

    /// Nothing to start: jobs run on demand.
    open func start() async throws {}

    /// Cancels the running job and every queued one, returns when all of them have ended, and finishes every
    /// ``stateChanges()`` stream.
    open func shutdown() async {
        let pending = runs
        for run in pending { run.cancel() }
        for run in pending { await run.ended() }
        changes.finishAll()
    }

    /// Whether the running job was cancelled and is winding down: its states until it ends are not those of a run
    /// started now.
    package var runningJobIsCancelled: Bool {
        runs.first { $0.id == runningID }?.isCancelled ?? false
    }

    /// The error ``run(_:whenBusy:)`` would throw now, before running anything, for `job` and `admission`; `nil`
    /// when it would start, queue or join a run.
    package func refusal<Output: Sendable>(of job: LongTask<Output>, whenBusy admission: LongTaskAdmission)
        -> LongTaskError?
    {
        do {
            _ = try joinableRun(of: job, admission)
            return nil
        } catch {
            return error
        }
    }

    /// The run `job` joins, or `nil` for a new one; throws when `admission` refuses it.
    private func joinableRun<Output: Sendable>(
        of job: LongTask<Output>, _ admission: LongTaskAdmission
    ) throws(LongTaskError) -> LongTaskRun<Output>? {
        // A cancelled run is winding down: a caller that joined it would get its cancellation as its own result,
        // and it holds nobody off. A new run starts after it ends.
        let live = runs.filter { !$0.isCancelled }
        if admission != .queue,
            let same = live.last(where: {
                $0.name == job.name && LongTaskParameters.equal($0.parameters, job.parameters)
            })
        {
            guard let run = same as? LongTaskRun<Output> else {
                throw LongTaskError.outputMismatch(
                    name: job.name, running: same.outputTypeName, requested: "\(Output.self)")
            }
            return run
        }
        if admission == .joinOrRefuse, let first = live.first {
            let progress = first.id == runningID ? state.progress : 0
            throw LongTaskError.busy(name: first.name, parameters: first.parameters, progress: progress)
        }
        return nil
    }

    /// The run `job` joins or a new one, as `admission` says.
    private func admit<Output: Sendable>(
        _ job: LongTask<Output>, _ admission: LongTaskAdmission
    ) throws -> LongTaskRun<Output> {
        if let joined = try joinableRun(of: job, admission) { return joined }
        let run = LongTaskRun(id: nextID, job: job)
        nextID += 1
        let previous = runs.last
        run.start {
            await previous?.ended()
            return try await self.execute(job, id: run.id)
        }
        runs.append(run)
        return run
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
