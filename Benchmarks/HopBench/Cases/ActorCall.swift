import HopBenchCore

/// A plain (default-executor) actor with one piece of state.
actor CounterActor {
    private var total = 0

    /// Adds `value` to the state and returns the new total.
    func add(_ value: Int) -> Int {
        total &+= value
        return total
    }
}

extension Cases {
    /// A cooperative task calling a method of a plain actor: hop in, run, hop back.
    static let actorCall = BenchmarkCase(
        batched: "actor.call",
        summary: "cooperative task -> plain actor method -> back"
    ) { operations in
        let counter = identity(CounterActor())
        var sum = 0
        let start = MonotonicClock.now()
        for index in 0..<operations { sum &+= await counter.add(index) }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }
}
