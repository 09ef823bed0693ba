import SingletonRegistry

/// The key of the shared ``LocationManager``: `AppSingletons.locationManager`.
public enum LocationManagerKey: SingletonKey {
    /// A manager with no source.
    public static var liveValue: LocationManager { LocationManager() }
}

extension AppSingletons {
    /// The shared ``LocationManager``.
    public var locationManager: LocationManager {
        get { self[LocationManagerKey.self] }
        set { self[LocationManagerKey.self] = newValue }
    }
}
