import Dispatch
import HopBenchCore

extension Cases {
    /// The pre-concurrency way to serialise access: a serial queue's `sync`.
    static let dispatchSync = BenchmarkCase(
        batched: "dispatch.sync",
        summary: "DispatchQueue.sync on a serial queue returning a value"
    ) { operations in
        let queue = identity(DispatchQueue(label: "hop-bench.dispatch.sync"))
        var sum = 0
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= queue.sync { plainCall(index) }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }
}
