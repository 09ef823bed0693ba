import SingletonRegistry
import Testing

extension Trait where Self == SingletonsTrait {
    /// Replaces one shared value for the test: the value of `key` is `value()`, made anew for each test (each case
    /// of a parameterised test).
    ///
    /// ```swift
    /// @Test(.singleton(ClockKey.self, TestClock()))
    /// func timesOut() async throws { ... }
    /// ```
    ///
    /// The trait names the key type, not the accessor's key path: an accessor of ``AppSingletons`` is isolated to
    /// ``RegistryActor``, and Swift 6.3.1 forms no key path to an isolated property in a trait's arguments, which are
    /// evaluated outside the actor ("cannot form key path to global actor 'RegistryActor'-isolated property").
    ///
    /// Escaped reads are reported at `sourceLocation`, the place the trait is applied.
    public static func singleton<Key: SingletonKey>(
        _ key: Key.Type,
        _ value: @autoclosure @escaping @Sendable () -> Key.Value,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Self {
        SingletonsTrait(configure: { $0[Key.self] = value() }, sourceLocation: sourceLocation, reportsUsage: false)
    }

    /// Replaces shared values for the test with a configuration that may suspend and throw: `configure` sets them
    /// on the test's scope container once the scope is active, before the test body runs. A thrown error fails the
    /// test with that error, and the body does not run.
    ///
    /// ```swift
    /// @Test(.singletons { $0.stationConfiguration = try await StationConfiguration.load("bench") })
    /// func readsTheBenchConfiguration() async throws { ... }
    /// ```
    ///
    /// A configuration that neither suspends nor throws picks the synchronous `.singletons { }`, which
    /// sets the values as the scope is entered.
    public static func singletons(
        reportingUsage: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ configure: @escaping @RegistryActor @Sendable (AppSingletons) async throws -> Void
    ) -> Self {
        SingletonsTrait(
            configure: { _ in }, sourceLocation: sourceLocation, reportsUsage: reportingUsage, prepare: configure)
    }
}
