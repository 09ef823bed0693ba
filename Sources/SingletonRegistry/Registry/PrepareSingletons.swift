/// Sets process-wide values at startup, before anything reads them.
///
/// `prepare` receives the process-wide container (``appSingletons``) and sets values on it for the rest of the
/// process's life:
///
/// ```swift
/// @main struct Station {
///     static func main() async throws {
///         await prepareSingletons {
///             $0.clock = ContinuousClock()
///             $0.weather = .live(apiKey: key)
///         }
///         try await appSingletons.start()
///     }
/// }
/// ```
///
/// A value is prepared too late when the container already holds the key's live value: it was read (its live value
/// was made on that first read), or named to ``AppSingletons/declare(_:)``, which makes the live value as a read
/// does. The new value still takes effect, but code that read the key before keeps the value it read; the registry
/// reports it once per key, through ``RegistryWarnings/handler`` (standard output unless the program installs its
/// own). A read made inside `prepare` itself (`$0.weather.units = .metric`, which reads the value to change part of
/// it) is no earlier read.
///
/// Inside an override scope (``withSingletons(_:isolation:operation:)``) `prepare` sets the scope's values instead,
/// and inside a test the test's own values; there, a value the test or scope had already read is reported as an
/// issue of the test. So a test can run the program's startup code and learn that it reads a value before
/// preparing it.
///
/// Synchronous on ``RegistryActor``: from a nonisolated `main`, call it with `await`.
@RegistryActor
public func prepareSingletons(_ prepare: @RegistryActor (AppSingletons) throws -> Void) rethrows {
    let outer = LateStartupValues.beginPreparing(appSingletons.acting)
    defer { LateStartupValues.endPreparing(restoring: outer) }
    try prepare(appSingletons)
}
