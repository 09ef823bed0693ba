import HopBenchCore

/// Hops into any global actor's executor and back, so one case body serves the stand-in and `RegistryActor`.
///
/// The hop goes through an `isolated` parameter: calling `touch(G.shared, x)` switches to `G`'s executor exactly as
/// calling a `@G` function does. The body calls the opaque `blackHole`, which may read or write memory, so the
/// optimizer cannot prove the hop dead and remove it (see Benchmarks/README.md for the SIL that shows it stays).
enum GlobalActorHop {
    /// Runs on the target actor; returns `value + 1`.
    @inline(never)
    static func touch<A: Actor>(_ target: isolated A, _ value: Int) -> Int {
        blackHole(value)
        return value &+ 1
    }

    /// Times `operations` hops from the calling cooperative task into `G` and back, as one batch.
    @concurrent
    static func fromCooperativeTask<G: GlobalActor>(to _: G.Type, operations: Int) async -> UInt64 {
        let target = identity(G.shared)
        var sum = 0
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= await touch(target, index)
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    /// Times each of `operations` round trips main actor → `G` → main actor.
    @MainActor
    static func fromMainActor<G: GlobalActor>(to _: G.Type, operations: Int) async -> [UInt64] {
        let target = identity(G.shared)
        var durations: [UInt64] = []
        durations.reserveCapacity(operations)
        var sum = 0
        for index in 0..<operations {
            let start = MonotonicClock.now()
            sum &+= await touch(target, index)
            durations.append(MonotonicClock.now() &- start)
        }
        blackHole(sum)
        return durations
    }
}
