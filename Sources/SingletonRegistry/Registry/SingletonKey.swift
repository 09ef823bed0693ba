/// Names one of the managers ``AppSingletons`` holds.
public enum SingletonKey: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ``AppSingletons/locationManager``.
    case locationManager
    /// ``AppSingletons/longTaskManager``.
    case longTaskManager

    /// The property's name.
    public var description: String { rawValue }
}
