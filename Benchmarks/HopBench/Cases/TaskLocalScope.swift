import HopBenchCore
import SingletonRegistry

/// The task-local value `tasklocal.scope` binds.
enum TaskLocalScopeValue {
    /// Bound to a new value by every operation of the case.
    @TaskLocal static var current = 0
}

/// The loop of `tasklocal.scope`: on `RegistryActor`, as `registry.scope`'s loop is.
enum TaskLocalScopeLoop {
    /// Times `operations` entries and exits of an async `TaskLocal.withValue` binding one value, whose operation
    /// returns at once: the mechanism under every task-local-based override scope (`withSingletons`,
    /// swift-dependencies' `withDependencies`), with nothing else.
    @RegistryActor
    static func run(_ operations: Int) async -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            // The closure is declared async so that the async `withValue` is the one called, as in `withSingletons`.
            sum &+= await TaskLocalScopeValue.$current.withValue(index) { () async -> Int in index }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }
}

extension Cases {
    /// The denominator of `registry.scope`'s ratio row: a bare task-local scope, entered and left on the actor.
    static let taskLocalScope = BenchmarkCase(
        batched: "tasklocal.scope",
        summary: "inside RegistryActor: async TaskLocal.withValue binding one Int, operation returns at once"
    ) { operations in
        await TaskLocalScopeLoop.run(operations)
    }
}
