import HopBenchCore
import SingletonRegistry

/// What `registry.read` is measured against: the plain `static let shared` a manager is reached through without a
/// registry, read in the same loop on the same actor.
@RegistryActor
final class StaticShared {
    static let shared = StaticShared()
    nonisolated init() {}
}

enum StaticReadLoop {
    /// `StaticShared.shared`, read where it is used, as code in another function reads it: not inlined, so the read
    /// is not hoisted out of the timed loop (a `static let` is a constant the optimizer would read once).
    @inline(never) @RegistryActor
    static func shared() -> StaticShared { StaticShared.shared }

    /// Times `operations` reads of `StaticShared.shared` from inside `RegistryActor`.
    @RegistryActor
    static func run(_ operations: Int) -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            sum &+= Int(bitPattern: ObjectIdentifier(shared()))
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }
}

extension Cases {
    /// Reading a `static let shared` singleton, the baseline of `registry.read`.
    static let staticRead = BenchmarkCase(
        batched: "static.read",
        summary: "inside RegistryActor: StaticShared.shared, a `static let shared` singleton"
    ) { operations in
        await StaticReadLoop.run(operations)
    }
}
