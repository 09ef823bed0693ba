import HopBenchCore

extension Cases {
    /// The main actor calling into a global actor and resuming: on Linux each leg may wake a parked thread.
    ///
    /// Switch to the registry by replacing `BenchGlobalActor.self` with `RegistryActor.self`.
    static let mainActorRoundTrip = BenchmarkCase(
        perOperation: "mainactor.roundtrip",
        summary: "main actor -> global actor (stand-in) -> main actor, timed one by one"
    ) { operations in
        await GlobalActorHop.fromMainActor(to: BenchGlobalActor.self, operations: operations)
    }
}
