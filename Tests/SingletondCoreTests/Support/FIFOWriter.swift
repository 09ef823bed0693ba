import Foundation
import SingletonRegistry
import Synchronization
import SystemCalls
import TestSupport

/// Writes the same bytes to a descriptor (a FIFO a daemon reads its source from) again and again on a thread of its
/// own, as fast as the reader takes them, for at most `passes` passes or until ``stop()``.
final class FIFOWriter: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let written = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)

    init(fd: Int32, bytes: [UInt8], passes: Int) {
        Thread { [self] in
            defer { finished.signal() }
            for _ in 0..<passes where !stopping.load(ordering: .relaxed) {
                guard (try? System.writeAll(fd, bytes)) != nil else { return }
                written.add(1, ordering: .relaxed)
            }
        }.start()
    }

    /// Stops after the pass being written; returns how many passes were written.
    func stop() async -> Int {
        stopping.store(true, ordering: .relaxed)
        let finished = finished
        _ = await blocking { finished.wait(timeout: .now() + waitHangBound) }
        return written.load(ordering: .relaxed)
    }
}
