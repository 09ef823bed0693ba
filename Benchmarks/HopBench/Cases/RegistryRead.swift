import HopBenchCore
import SingletonRegistry

/// The loop of the `registry.read` cases: it runs on `RegistryActor`, where registry code reads its managers.
enum RegistryReadLoop {
    /// Times `operations` reads of `appSingletons.longTaskManager` from inside `RegistryActor`.
    ///
    /// Each read goes through the getter of `appSingletons` (a task-local lookup of the override scope, then the
    /// process-wide container) and the container's `longTaskManager` getter (the escaped-read check, a load): the
    /// getters live in another module and are not inlinable, so every iteration calls both.
    @RegistryActor
    static func run(_ operations: Int) -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            sum &+= Int(bitPattern: ObjectIdentifier(appSingletons.longTaskManager))
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    /// The same loop inside a `withSingletons` scope that replaces the long-task manager; the scope is entered
    /// and left outside the timed loop.
    @RegistryActor
    static func runOverridden(_ operations: Int) async -> UInt64 {
        await withSingletons({ $0.longTaskManager = identity(LongTaskManager()) }) {
            run(operations)
        }
    }
}

extension Cases {
    /// Reading a manager through the registry, as registry code does on every use.
    static let registryRead = BenchmarkCase(
        batched: "registry.read",
        summary: "inside RegistryActor: appSingletons.longTaskManager, no override active"
    ) { operations in
        await RegistryReadLoop.run(operations)
    }

    /// The same read inside an override scope, as in a test using `withSingletons` or the `.singletons` trait.
    static let registryReadOverridden = BenchmarkCase(
        batched: "registry.read.overridden",
        summary: "inside RegistryActor: appSingletons.longTaskManager inside an active withSingletons override"
    ) { operations in
        await RegistryReadLoop.runOverridden(operations)
    }
}
