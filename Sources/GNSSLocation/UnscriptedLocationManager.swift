import SingletonRegistry

/// The test value of ``LocationManagerKey``: a manager a test gets when it reads `appSingletons.locationManager`
/// without replacing it. It reaches no receiver: starting it records an issue against the test, naming the fix, and
/// leaves it idle.
final class UnscriptedLocationManager: LocationManager {
    /// Records the issue instead of opening `source`.
    override func start(_ source: LocationSource) async throws {
        recordTestIssue(
            "appSingletons.locationManager was started (\(source)) in a test that did not replace it, so it reads "
                + "nothing: give the test a scripted manager with `.singletons { $0.locationManager = "
                + "ScriptedLocationManager(script: fixes) }` (GNSSLocationTesting), or one of your own")
    }
}
