import HopBenchCore
import Synchronization

extension Cases {
    /// The uncontended lock a hop is usually weighed against.
    static let mutexWithLock = BenchmarkCase(
        batched: "mutex.withLock",
        summary: "Mutex<Int>.withLock { += } from one thread, uncontended"
    ) { operations in
        let mutex = identity(MutexBox())
        var sum = 0
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= mutex.value.withLock { value in
                value &+= index
                return value
            }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }
}

/// Holds the case's Mutex so it can pass through `identity` (a `Mutex` itself cannot be copied).
final class MutexBox: Sendable {
    let value = Mutex(0)
}
