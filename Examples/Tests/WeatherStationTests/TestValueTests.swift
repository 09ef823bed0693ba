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

    /// `forecastClient`'s test value is unimplemented. A test that calls an endpoint it did not replace records an
    /// issue naming the endpoint and the test, and the endpoint throws (here the issue is expected, so the test
    /// passes).
    @Test func aTestThatCallsAnUnimplementedEndpointIsReported() async throws {
        await withKnownIssue {
            await #expect(throws: UnimplementedEndpointError(endpoint: "ForecastClient.alerts")) {
                try await appSingletons.forecastClient.alerts()
            }
        } matching: { issue in
            issue.comments.map(\.rawValue) == [
                "Unimplemented: ForecastClient.alerts was called in test aTestThatCallsAnUnimplementedEndpointIsReported()"
            ]
        }
    }

    /// The same test, fixed: it replaces the endpoint it calls.
    @Test(.singletons { $0.forecastClient.alerts = { ["gale"] } })
    func theSameTestWithTheEndpointReplaced() async throws {
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
