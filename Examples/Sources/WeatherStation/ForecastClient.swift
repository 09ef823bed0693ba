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

/// The key of the shared ``ForecastClient``. It declares no test value on purpose, as a network client often does
/// not: a test that reads it without replacing it is reported (`TestValueTests` shows it).
public enum ForecastClientKey: SingletonKey {
    /// A client that works offline: it describes the position and reports no alerts.
    public static var liveValue: ForecastClient {
        ForecastClient(
            forecast: { latitude, longitude in "no forecast service configured for \(latitude), \(longitude)" },
            alerts: { [] })
    }
}

extension AppSingletons {
    /// The forecast service.
    public var forecastClient: ForecastClient {
        get { self[ForecastClientKey.self] }
        set { self[ForecastClientKey.self] = newValue }
    }
}
