import Foundation
import Synchronization

/// Runs blocking work (a `poll`, a `read`, waiting for a process) on a thread of its own, so that it never holds
/// one of the few threads of Swift's cooperative pool, which the code under test needs to make progress.
///
/// When the calling task is cancelled (a test's time limit), the work's thread is told: waits written with
/// ``blockingPoll(_:timeout:)`` then give up within ``blockingPollSlice`` seconds, so a cancelled test ends
/// promptly instead of waiting out its hang bounds.
package func blocking<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    let runner = BlockingRunner()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            Thread {
                Thread.current.threadDictionary[BlockingRunner.key] = runner
                continuation.resume(returning: work())
            }.start()
        }
    } onCancel: {
        runner.cancel()
    }
}

/// How long one `poll(2)` of ``blockingPoll(_:timeout:)`` lasts at most before it looks for cancellation.
package let blockingPollSlice = 0.1

/// Whether the task that called ``blocking(_:)`` to run the current thread's work was cancelled; `false` on any
/// other thread.
package var blockingWasCancelled: Bool {
    (Thread.current.threadDictionary[BlockingRunner.key] as? BlockingRunner)?.isCancelled ?? false
}

/// `poll(2)` on `descriptors` for up to `timeout` seconds, in slices of ``blockingPollSlice``: the number of ready
/// descriptors, or 0 when the time is up or the calling ``blocking(_:)`` task was cancelled; -1 on an error.
package func blockingPoll(_ descriptors: inout [pollfd], timeout: Double) -> Int32 {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0, !blockingWasCancelled else { return 0 }
        let slice = Int32(max(1, min(remaining, blockingPollSlice) * 1_000))
        let ready = poll(&descriptors, nfds_t(descriptors.count), slice)
        if ready < 0, errno == EINTR { continue }
        if ready != 0 { return ready }
    }
}

/// Whether the task of one ``blocking(_:)`` call was cancelled, kept in its thread's dictionary.
private final class BlockingRunner: Sendable {
    static let key = "SingletonRegistry.TestSupport.blocking"
    private let cancelled = Atomic<Bool>(false)

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() { cancelled.store(true, ordering: .relaxed) }
}
