import HopBenchCore
import SingletonRegistry

extension Cases {
    /// The main actor calling into the registry's actor and resuming: on Linux each leg may wake a parked thread.
    static let mainActorRoundTrip = BenchmarkCase(
        perOperation: "mainactor.roundtrip",
        summary: "main actor -> RegistryActor -> main actor, timed one by one"
    ) { operations in
        await GlobalActorHop.fromMainActor(to: RegistryActor.self, operations: operations)
    }
}
