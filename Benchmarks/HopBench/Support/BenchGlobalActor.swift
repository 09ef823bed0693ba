/// A stand-in global actor with nothing on it, shaped like `RegistryActor`.
///
/// `same-actor.call` and `mainactor.roundtrip` use it until the registry cases exist; switching a case to the
/// registry is replacing `BenchGlobalActor.self` with `RegistryActor.self` in that case's file.
@globalActor
actor BenchGlobalActor {
    /// The one instance.
    static let shared = BenchGlobalActor()
}
