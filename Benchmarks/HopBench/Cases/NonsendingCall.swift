import HopBenchCore

/// Runs on the caller's actor (SE-0461): no hop.
@inline(never)
nonisolated(nonsending) func nonsendingWork(_ value: Int) async -> Int {
    blackHole(value)
    return value &+ 1
}

/// The actor the SE-0461 cases call from.
actor CallerActor {
    private var total = 0

    /// Times `operations` calls of `nonsendingWork` from this actor.
    func loopNonsending(_ operations: Int) async -> UInt64 {
        let start = MonotonicClock.now()
        for index in 0..<operations { total &+= await nonsendingWork(index) }
        let end = MonotonicClock.now()
        blackHole(total)
        return end &- start
    }

    /// Times `operations` calls of `concurrentWork` from this actor.
    func loopConcurrent(_ operations: Int) async -> UInt64 {
        let start = MonotonicClock.now()
        for index in 0..<operations { total &+= await concurrentWork(index) }
        let end = MonotonicClock.now()
        blackHole(total)
        return end &- start
    }
}

extension Cases {
    /// An actor calling a `nonisolated(nonsending)` async function, which stays on the actor.
    static let nonsendingCall = BenchmarkCase(
        batched: "nonsending.call",
        summary: "actor -> nonisolated(nonsending) async func (runs on the caller's actor, no hop)"
    ) { operations in
        await identity(CallerActor()).loopNonsending(operations)
    }
}
