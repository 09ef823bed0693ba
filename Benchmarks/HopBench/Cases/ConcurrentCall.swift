import HopBenchCore

/// Leaves the caller's actor for the global concurrent executor (SE-0461), and returns.
@inline(never)
@concurrent func concurrentWork(_ value: Int) async -> Int {
    blackHole(value)
    return value &+ 1
}

extension Cases {
    /// An actor calling a `@concurrent` async function: a hop off the actor and one back.
    static let concurrentCall = BenchmarkCase(
        batched: "concurrent.call",
        summary: "actor -> @concurrent async func (hops to the global executor) -> back"
    ) { operations in
        await identity(CallerActor()).loopConcurrent(operations)
    }
}
