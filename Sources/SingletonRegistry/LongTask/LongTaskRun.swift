/// A run of a job in ``LongTaskManager``, as the manager's queue sees it whatever the job's output.
@RegistryActor
protocol LongTaskRunning: AnyObject {
    /// The run's number, unique for its manager.
    var id: Int { get }
    /// The job's name.
    var name: String { get }
    /// The job's parameters.
    var parameters: any Hashable & Sendable { get }
    /// The name of the job's `Output` type.
    var outputTypeName: String { get }
    /// Whether the run was cancelled: it is winding down, and nobody may join it any more.
    var isCancelled: Bool { get }
    /// Cancels the run.
    func cancel()
    /// Returns when the run has ended.
    func ended() async
}

/// One run of a job: its task, its result once it ended, and the callers awaiting it.
///
/// A run lasts while somebody wants it: each caller of ``LongTaskManager/run(_:whenBusy:)`` that started or joined
/// it is a waiter, a cancelled caller stops waiting at once, and when the last waiter has stopped the run is
/// cancelled.
@RegistryActor
final class LongTaskRun<Output: Sendable>: LongTaskRunning {
    let id: Int
    let job: LongTask<Output>
    private var task: Task<Void, Never>?
    private var result: Result<Output, any Error>?
    private var waiters: Set<Int> = []
    private var continuations: [Int: CheckedContinuation<Output, any Error>] = [:]
    private var nextWaiter = 0
    /// Whether the run was cancelled, by ``cancel()`` or because its last waiter stopped waiting.
    private(set) var isCancelled = false

    var name: String { job.name }
    var parameters: any Hashable & Sendable { job.parameters }
    var outputTypeName: String { "\(Output.self)" }

    init(id: Int, job: LongTask<Output>) {
        self.id = id
        self.job = job
    }

    /// Starts `body`, whose result ends the run.
    func start(_ body: @escaping @RegistryActor () async throws -> Output) {
        task = Task {
            let result: Result<Output, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            self.end(with: result)
        }
    }

    /// Adds a waiter and returns its number.
    func addWaiter() -> Int {
        defer { nextWaiter += 1 }
        waiters.insert(nextWaiter)
        return nextWaiter
    }

    /// The run's output, for `waiter`; throws `CancellationError` once the waiter has stopped waiting.
    func value(for waiter: Int) async throws -> Output {
        if let result { return try result.get() }
        guard waiters.contains(waiter) else { throw CancellationError() }
        return try await withCheckedThrowingContinuation { continuations[waiter] = $0 }
    }

    /// Stops `waiter` waiting; cancels the run when nobody waits any more.
    func removeWaiter(_ waiter: Int) {
        guard result == nil, waiters.remove(waiter) != nil else { return }
        continuations.removeValue(forKey: waiter)?.resume(throwing: CancellationError())
        if waiters.isEmpty { cancel() }
    }

    func cancel() {
        isCancelled = true
        task?.cancel()
    }

    func ended() async {
        await task?.value
    }

    private func end(with result: Result<Output, any Error>) {
        self.result = result
        let waiting = continuations.values
        continuations = [:]
        waiters = []
        for continuation in waiting { continuation.resume(with: result) }
    }
}
