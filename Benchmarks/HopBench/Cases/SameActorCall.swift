import HopBenchCore

/// State on the stand-in global actor, read and written by `same-actor.call`.
@BenchGlobalActor
final class SameActorState {
    private var total = 0

    /// Adds `value` and returns the new total; a synchronous call from inside the actor, no hop.
    @inline(never)
    func add(_ value: Int) -> Int {
        total &+= value
        return total
    }

    /// Times `operations` calls of `add` from inside the actor.
    func loop(_ operations: Int) -> UInt64 {
        let state = identity(self)
        var sum = 0
        let start = MonotonicClock.now()
        for index in 0..<operations { sum &+= state.add(index) }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }
}

extension Cases {
    /// The denominator of the registry-read ratio row: a call of a same-actor method from inside the actor.
    static let sameActorCall = BenchmarkCase(
        batched: "same-actor.call",
        summary: "inside a global actor: non-inlinable call of a method isolated to the same actor"
    ) { operations in
        await SameActorState.shared.loop(operations)
    }
}

extension SameActorState {
    /// The instance the case uses.
    static let shared = SameActorState()
}
