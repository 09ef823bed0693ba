import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// `@Singleton` reads through `appSingletons`, and its projected value overrides one instance.
@Suite(.hangBound) struct SingletonPropertyWrapperTests {
    @RegistryActor
    final class ForecastScreen {
        @Singleton(\.weatherClient) var weather
        @Singleton(\.longTaskManager) var tasks

        func headline() async throws -> String { try await weather.forecast("Bergen") }
    }

    @Test(.singletons { $0.weatherClient.forecast = { _ in "rain" } })
    func readsThroughTheTestsOverride() async throws {
        let screen = await ForecastScreen()
        #expect(try await screen.headline() == "rain")
    }

    @Test @RegistryActor
    func readsTheSharedValueAtEachAccess() async throws {
        let screen = ForecastScreen()
        #expect(try await screen.headline() == "test forecast for Bergen")
        let mock = RecordingLongTaskManager()
        await withSingletons({ $0.longTaskManager = mock }) {
            #expect(screen.tasks === mock, "an instance made before the scope still sees the scope's value")
        }
    }

    @Test @RegistryActor
    func theProjectedValueOverridesOneInstance() async throws {
        let screen = ForecastScreen()
        let other = ForecastScreen()
        screen.$weather.override = WeatherClient(forecast: { _ in "snow" }, alerts: { ["avalanche"] })
        #expect(try await screen.headline() == "snow")
        #expect(try await other.headline() == "test forecast for Bergen")
        screen.$weather.override = nil
        #expect(try await screen.headline() == "test forecast for Bergen")
    }
}
