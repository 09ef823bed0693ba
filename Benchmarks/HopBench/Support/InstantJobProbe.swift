import HopBenchCore
import SingletonRegistry
import Synchronization

/// Runs instant jobs on a fresh `LongTaskManager`, one per `go`, each finishing only when its `gate` opens.
///
/// The observation cases use it to make exactly one state change happen at a moment they choose: the job has
/// reached `.running` (and the observer has re-armed) before the gate opens, and the work stamps `finishedAt`
/// as its last step, so the figure an observer computes runs from the end of the work to its own wake-up.
final class InstantJobProbe: Sendable {
    /// The manager the jobs run on, passed through `identity`.
    let manager: LongTaskManager
    /// Tells the runner task to start the next job.
    let go = Baton()
    /// Lets the running job's work return.
    let gate = Baton()
    /// When the last job's work returned (monotonic ns).
    let finishedAt: StampCell
    private let job: LongTask<Void>

    /// A probe on a fresh manager.
    init() {
        let gate = gate
        let finishedAt = StampCell()
        self.finishedAt = finishedAt
        manager = identity(LongTaskManager())
        job = LongTask(name: "hop-bench.instant") { _ in
            await gate.wait()
            finishedAt.value.store(MonotonicClock.now(), ordering: .releasing)
        }
    }

    /// Starts the task that runs `count` jobs, each after a `go`.
    func startRunner(count: Int) -> Task<Void, Never> {
        Task { [manager, go, job] in
            for _ in 0..<count {
                await go.wait()
                try? await manager.run(job)
            }
        }
    }
}

/// A timestamp shared between tasks.
final class StampCell: Sendable {
    /// Monotonic nanoseconds.
    let value = Atomic<UInt64>(0)
}
