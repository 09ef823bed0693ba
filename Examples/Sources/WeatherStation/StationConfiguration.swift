import SingletonRegistry

/// How the station is set up: one value, read everywhere, replaced whole in tests.
public struct StationConfiguration: Sendable, Equatable {
    /// The station's name in reports.
    public var name: String
    /// How many trip points a trip keeps before it is summarised.
    public var maxTripPoints: Int

    /// A configuration.
    public init(name: String, maxTripPoints: Int) {
        self.name = name
        self.maxTripPoints = maxTripPoints
    }
}

/// The key of the shared ``StationConfiguration``.
public enum StationConfigurationKey: SingletonKey {
    /// The configuration the station ships with.
    public static var liveValue: StationConfiguration { StationConfiguration(name: "rooftop", maxTripPoints: 1_000) }
    /// A small configuration for tests, so that a trip's limit is reached in a few points.
    public static var testValue: StationConfiguration { StationConfiguration(name: "test bench", maxTripPoints: 10) }
}

extension AppSingletons {
    /// The station's configuration.
    public var stationConfiguration: StationConfiguration {
        get { self[StationConfigurationKey.self] }
        set { self[StationConfigurationKey.self] = newValue }
    }
}
