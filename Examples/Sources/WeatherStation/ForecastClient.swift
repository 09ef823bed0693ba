import SingletonRegistry

/// The forecast service, as a struct of closures: a test replaces one endpoint and keeps the others.
public struct ForecastClient: Sendable {
    /// The forecast for a position, in words.
    public var forecast: @Sendable (_ latitude: Double, _ longitude: Double) async throws -> String
    /// Weather alerts in force.
    public var alerts: @Sendable () async throws -> [String]

    /// A client made of the given endpoints.
    public init(
        forecast: @escaping @Sendable (_ latitude: Double, _ longitude: Double) async throws -> String,
        alerts: @escaping @Sendable () async throws -> [String]
    ) {
        self.forecast = forecast
        self.alerts = alerts
    }
}

/// The key of the shared ``ForecastClient``. Its test value is unimplemented: a test replaces the endpoints it
/// calls, and a call of one it did not replace is recorded as an issue naming the endpoint (`TestValueTests` shows
/// it).
public enum ForecastClientKey: SingletonKey {
    /// A client that works offline: it describes the position and reports no alerts.
    public static var liveValue: ForecastClient {
        ForecastClient(
            forecast: { latitude, longitude in "no forecast service configured for \(latitude), \(longitude)" },
            alerts: { [] })
    }

    /// A client whose endpoints record an issue when a test calls them, and throw.
    public static var testValue: ForecastClient {
        ForecastClient(
            forecast: unimplemented("ForecastClient.forecast"),
            alerts: unimplemented("ForecastClient.alerts"))
    }
}

extension AppSingletons {
    /// The forecast service.
    public var forecastClient: ForecastClient {
        get { self[ForecastClientKey.self] }
        set { self[ForecastClientKey.self] = newValue }
    }
}
