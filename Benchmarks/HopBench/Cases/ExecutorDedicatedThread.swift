import HopBenchCore

/// An actor shaped like the registry's (one serial domain with a little state) whose jobs run on a
/// `DedicatedThreadExecutor`: what moving `RegistryActor` onto a thread of its own would cost. `RegistryActor`
/// itself stays on the default executor.
actor DedicatedThreadCounter {
    private let executor: DedicatedThreadExecutor
    private var total = 0

    /// An actor on `executor`.
    init(executor: DedicatedThreadExecutor) {
        self.executor = executor
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Adds `value` to the state and returns the new total.
    func add(_ value: Int) -> Int {
        total &+= value
        return total
    }

    /// The actor on a thread that parks as soon as its queue is empty.
    static let parking = DedicatedThreadCounter(executor: DedicatedThreadExecutor(name: "hop-bench.dedicated"))
    /// The actor on a thread that polls 20,000 times before parking.
    static let spinning = DedicatedThreadCounter(
        executor: DedicatedThreadExecutor(name: "hop-bench.spinning", spinIterations: 20_000)
    )
}

/// Times each call from the cooperative task into `counter` and back.
@concurrent
func timeEachAdd(_ add: @Sendable (Int) async -> Int, operations: Int) async -> [UInt64] {
    var durations: [UInt64] = []
    durations.reserveCapacity(operations)
    var sum = 0
    for index in 0..<operations {
        let start = MonotonicClock.now()
        sum &+= await add(index)
        durations.append(MonotonicClock.now() &- start)
    }
    blackHole(sum)
    return durations
}

extension Cases {
    /// The comparison point of `executor.dedicatedThread`: the same call, same per-op timing, default executor.
    static let executorDefault = BenchmarkCase(
        perOperation: "executor.default",
        summary: "cooperative task -> actor on the default executor -> back, timed one by one"
    ) { operations in
        let counter = identity(CounterActor())
        return await timeEachAdd({ await counter.add($0) }, operations: operations)
    }

    /// An actor shaped like the registry's on a dedicated-thread `SerialExecutor`, against `executor.default`:
    /// every call wakes that thread and then the caller's.
    static let executorDedicatedThread = BenchmarkCase(
        perOperation: "executor.dedicatedThread",
        summary: "an actor shaped like the registry's on a dedicated-thread SerialExecutor vs the default executor"
    ) { operations in
        let counter = identity(DedicatedThreadCounter.parking)
        return await timeEachAdd({ await counter.add($0) }, operations: operations)
    }

    /// The same with a thread that spins before parking: the wake-up cost bought with a busy core.
    static let executorDedicatedThreadSpinning = BenchmarkCase(
        perOperation: "executor.dedicatedThread.spin",
        summary: "as executor.dedicatedThread, the thread polls 20,000 times before parking"
    ) { operations in
        let counter = identity(DedicatedThreadCounter.spinning)
        return await timeEachAdd({ await counter.add($0) }, operations: operations)
    }
}
