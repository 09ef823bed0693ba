import HopBenchCore
import SingletonRegistry

/// The loops of the `registry.read` cases: they run on `RegistryActor`, where registry code reads its values.
///
/// The keys are declared here, in another module than the registry, exactly as a user declares theirs; the read
/// goes through the same inlinable accessor and subscript a user's code compiles.
enum RegistryReadLoop {
    /// Times `operations` reads of `appSingletons.benchManager` from inside `RegistryActor`.
    @RegistryActor
    static func run(_ operations: Int) -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            sum &+= Int(bitPattern: ObjectIdentifier(appSingletons.benchManager))
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    /// Times `operations` reads of the last of 20 keys the process-wide container holds.
    @RegistryActor
    static func runLastOfTwenty(_ operations: Int) -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            sum &+= appSingletons[Filler20Key.self]
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    /// Makes the process-wide container hold the 20 filler keys, `Filler20Key` last.
    @RegistryActor
    static func declareTwentyKeys() {
        FillerKeys.declareAll(in: appSingletons)
    }

    /// `loop` inside a `withSingletons` scope that replaces the keys it reads; the scope is entered and left
    /// outside the timed loop.
    @RegistryActor
    static func overridden(_ operations: Int, _ loop: @RegistryActor (Int) -> UInt64) async -> UInt64 {
        await withSingletons({
            $0.benchManager = identity(BenchManager())
            $0[Filler20Key.self] = identity(20)
        }) {
            loop(operations)
        }
    }

    /// Times `operations` entries and exits of a scope that replaces one key with a value without a lifecycle.
    @RegistryActor
    static func enterAndLeave(_ operations: Int) async -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= await withSingletons({ $0[Filler01Key.self] = index }) { index }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    /// The same with the synchronous `withSingletons`, whose operation cannot suspend.
    @RegistryActor
    static func enterAndLeaveSynchronously(_ operations: Int) -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= withSingletons({ $0[Filler01Key.self] = index }) { index }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    /// The same from nonisolated code, as a test enters a scope: entering and leaving hop to `RegistryActor`.
    @concurrent
    static func enterAndLeaveNonisolated(_ operations: Int) async -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= await withSingletons({ $0[Filler01Key.self] = index }) { index }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }
}

extension Cases {
    /// Reading a user-declared value through the registry, as code does on every use.
    static let registryRead = BenchmarkCase(
        batched: "registry.read",
        summary: "inside RegistryActor: appSingletons.benchManager (a key declared in this module), no override"
    ) { operations in
        await RegistryReadLoop.run(operations)
    }

    /// The same read after a scope was entered and left from nonisolated code, which leaves its slot for the actor
    /// to free: the first read's slow path frees it, and the rest take the fast path again.
    static let registryReadAfterScope = BenchmarkCase(
        batched: "registry.read.afterScope",
        summary: "registry.read after a scope was entered and left from nonisolated code (once, before the loop)"
    ) { operations in
        blackHole(await RegistryReadLoop.enterAndLeaveNonisolated(1))
        return await RegistryReadLoop.run(operations)
    }

    /// The same read inside an override scope, as in a test using `withSingletons` or the `.singletons` trait.
    static let registryReadOverridden = BenchmarkCase(
        batched: "registry.read.overridden",
        summary: "inside RegistryActor: appSingletons.benchManager inside an active withSingletons override"
    ) { operations in
        await RegistryReadLoop.overridden(operations, RegistryReadLoop.run)
    }

    /// Reading the last of 20 keys the container holds.
    static let registryReadTwentyKeys = BenchmarkCase(
        batched: "registry.read.20keys",
        summary: "inside RegistryActor: the last of 20 declared keys, no override"
    ) { operations in
        await RegistryReadLoop.declareTwentyKeys()
        return await RegistryReadLoop.runLastOfTwenty(operations)
    }

    /// Reading the last of 20 keys inside an override scope that replaced it.
    static let registryReadTwentyKeysOverridden = BenchmarkCase(
        batched: "registry.read.20keys.overridden",
        summary: "inside RegistryActor: the last of 20 declared keys inside a withSingletons override of it"
    ) { operations in
        await RegistryReadLoop.declareTwentyKeys()
        return await RegistryReadLoop.overridden(operations, RegistryReadLoop.runLastOfTwenty)
    }

    /// Entering and leaving an override scope, as the `.singletons` trait does for every test.
    static let registryScope = BenchmarkCase(
        batched: "registry.scope",
        summary: "inside RegistryActor: withSingletons replacing one key (no lifecycle), entered and left"
    ) { operations in
        await RegistryReadLoop.enterAndLeave(operations)
    }

    /// Entering and leaving a scope from nonisolated code, as a test does.
    static let registryScopeNonisolated = BenchmarkCase(
        batched: "registry.scope.nonisolated",
        summary: "nonisolated async (as a test): withSingletons replacing one key (no lifecycle), entered and left"
    ) { operations in
        await RegistryReadLoop.enterAndLeaveNonisolated(operations)
    }

    /// Entering and leaving a scope whose operation is synchronous, on the actor.
    static let registryScopeSync = BenchmarkCase(
        batched: "registry.scope.sync",
        summary:
            "inside RegistryActor: the synchronous withSingletons replacing one key (no lifecycle), entered and left"
    ) { operations in
        await RegistryReadLoop.enterAndLeaveSynchronously(operations)
    }
}
