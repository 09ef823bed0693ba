import GNSSProtocol
import SingletonRegistry

/// The station's one-line report: where it is and what the weather will do there.
@RegistryActor
public final class StationReport {
    /// The forecast service this report asks.
    @Singleton(\.forecastClient) public var forecasts
    /// The station's configuration.
    @Singleton(\.stationConfiguration) public var configuration
    /// The trip whose latest position the report describes.
    @Singleton(\.tripRecorder) public var trip

    /// A report that reads the shared singletons each time it is made: `nonisolated`, so it is made anywhere
    /// without an `await` (`@Singleton` forms its key paths on the actor, when first read).
    public nonisolated init() {}

    /// `name: forecast (N points)`, for the latest recorded position; `nil` before the first one.
    public func line() async throws -> String? {
        guard let last = trip.points.last, let latitude = last.latitude, let longitude = last.longitude else {
            return nil
        }
        let forecast = try await forecasts.forecast(latitude, longitude)
        return "\(configuration.name): \(forecast) (\(trip.points.count) points)"
    }
}
