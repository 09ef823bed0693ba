/// The key of the registry's clock: ``AppSingletons/clock``.
///
/// Timed behaviour of the managers (a fix turning stale, reconnect backoff, replay pacing) reads its time from this
/// clock, so that a test replaces it with a manual clock and advances time instead of waiting for it. (A
/// `ScriptedLocationManager`'s `interval` is real time: it paces a script, and a test that needs exact instants
/// delivers the fixes itself.)
public enum ClockKey: SingletonKey {
    /// The continuous clock.
    public static var liveValue: any Clock<Duration> { ContinuousClock() }
    /// In a test: `SingletonRegistryTesting`'s `TestClock`, which moves only when the test advances it.
    public static var testValue: any Clock<Duration> { TestValues.context?.makeTestClock() ?? ContinuousClock() }
}

extension AppSingletons {
    /// The clock timed behaviour reads: `ContinuousClock` live, a manual clock in tests.
    public var clock: any Clock<Duration> {
        get { self[ClockKey.self] }
        set { self[ClockKey.self] = newValue }
    }
}
