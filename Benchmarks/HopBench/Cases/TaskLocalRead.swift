import HopBenchCore

/// The task-local value `tasklocal.read` reads.
enum TaskLocalReadValue {
    /// Bound to a value by the case before it reads.
    @TaskLocal static var current = 0
}

extension Cases {
    /// Reading a bound `@TaskLocal`: the other half of the registry-read ratio row.
    static let taskLocalRead = BenchmarkCase(
        batched: "tasklocal.read",
        summary: "read of a @TaskLocal bound by the enclosing withValue"
    ) { operations in
        TaskLocalReadValue.$current.withValue(identity(7)) {
            var sum = 0
            let start = MonotonicClock.now()
            for _ in 0..<operations { sum &+= TaskLocalReadValue.current }
            let end = MonotonicClock.now()
            blackHole(sum)
            return end &- start
        }
    }
}
