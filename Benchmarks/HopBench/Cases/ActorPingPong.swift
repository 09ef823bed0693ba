import HopBenchCore

/// The far side of `actor.pingpong`.
actor PongActor {
    private var total = 0

    /// Adds `value` and returns the new total.
    func pong(_ value: Int) -> Int {
        total &+= value
        return total
    }
}

/// The near side of `actor.pingpong`: its loop runs on this actor and calls the other one.
actor PingActor {
    private var total = 0

    /// Times `operations` round trips this actor → `partner` → this actor.
    func loop(_ operations: Int, partner: PongActor) async -> UInt64 {
        let start = MonotonicClock.now()
        for index in 0..<operations {
            total &+= await partner.pong(index)
        }
        let end = MonotonicClock.now()
        blackHole(total)
        return end &- start
    }
}

extension Cases {
    /// Two actors calling each other in turn.
    static let actorPingPong = BenchmarkCase(
        batched: "actor.pingpong",
        summary: "actor A -> actor B -> back to A, loop on A"
    ) { operations in
        await identity(PingActor()).loop(operations, partner: identity(PongActor()))
    }
}
