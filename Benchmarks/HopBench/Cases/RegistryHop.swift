import HopBenchCore
import SingletonRegistry

extension Cases {
    /// A cooperative task hopping into the registry's global actor and back: what every `await` of a manager
    /// method from nonisolated code (a job's progress report, a decoded fix) pays.
    static let registryHop = BenchmarkCase(
        batched: "registry.hop",
        summary: "cooperative task -> RegistryActor -> back"
    ) { operations in
        await GlobalActorHop.fromCooperativeTask(to: RegistryActor.self, operations: operations)
    }
}
