import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import Testing
import WeatherStation

/// What a test gets for a value it did not replace: the key's test value, its own, or an issue.
@Suite struct TestValueTests {
    /// The key declares a test value, so the test needs no trait to read a configuration made for tests.
    @Test func aTestReadsTheConfigurationsTestValue() async {
        #expect(await appSingletons.stationConfiguration.name == "test bench")
    }

    /// `forecastClient` declares no test value. A test that forgets to replace it is reported, naming the accessor
    /// and the fixes (here the report is expected, so the test passes).
    @Test func aTestThatForgetsTheForecastClientIsReported() async throws {
        try await withKnownIssue {
            _ = try await appSingletons.forecastClient.alerts()
        } matching: { issue in
            "\(issue)".contains("appSingletons.forecastClient was read in test")
        }
    }

    /// The same test, fixed: it replaces the client.
    @Test(.singletons { $0.forecastClient = ForecastClient(forecast: { _, _ in "calm" }, alerts: { ["gale"] }) })
    func theSameTestWithTheForecastClientReplaced() async throws {
        #expect(try await appSingletons.forecastClient.alerts() == ["gale"])
    }

    /// Two tests, run beside each other, record on the unreplaced `tripRecorder`: each has its own recorder and
    /// sees only its own points.
    @Test(arguments: [oslo, bergen]) func parallelTestsRecordOnTheirOwnRecorders(fix: Fix) async {
        let recorder = await appSingletons.tripRecorder
        #expect(await recorder.points.isEmpty, "no other test's points")
        await recorder.record(fix)
        #expect(await recorder.points == [fix])
        #expect(await appSingletons.tripRecorder === recorder)
    }
}
