import SingletonRegistry

/// The key of the shared ``LocationManager``: `AppSingletons.locationManager`.
public enum LocationManagerKey: SingletonKey {
    /// A manager with no source.
    public static var liveValue: LocationManager { LocationManager() }
    /// In a test: a manager that reaches no receiver, and records an issue against the test when it is started
    /// (a test that needs fixes replaces it with `GNSSLocationTesting`'s `ScriptedLocationManager`).
    public static var testValue: LocationManager { UnscriptedLocationManager() }
}

extension AppSingletons {
    /// The shared ``LocationManager``.
    public var locationManager: LocationManager {
        get { self[LocationManagerKey.self] }
        set { self[LocationManagerKey.self] = newValue }
    }
}
