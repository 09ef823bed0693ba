/// A global actor with nothing on it, shaped like `RegistryActor`.
///
/// `same-actor.call` runs on it so that the denominator of the registry-read ratio rows measures the language's
/// same-actor call alone, with none of the registry's code in it.
@globalActor
actor BenchGlobalActor {
    /// The one instance.
    static let shared = BenchGlobalActor()
}
