import SingletonRegistry

/// The station's startup: the configuration it was given, set process-wide before anything reads it.
public enum StationStartup {
    /// Prepares the station's values: its configuration, named `name`.
    @RegistryActor
    public static func prepare(name: String) {
        prepareSingletons { $0.stationConfiguration = StationConfiguration(name: name, maxTripPoints: 1_000) }
    }
}
