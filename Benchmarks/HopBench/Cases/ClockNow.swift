import HopBenchCore

extension Cases {
    /// One read of the clock every case uses; per-operation figures include one such read.
    static let clockNow = BenchmarkCase(
        batched: "clock.now",
        summary: "clock_gettime(CLOCK_MONOTONIC), the cost inside every per-op sample"
    ) { operations in
        var sum: UInt64 = 0
        let start = MonotonicClock.now()
        for _ in 0..<operations { sum &+= MonotonicClock.now() }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }
}
