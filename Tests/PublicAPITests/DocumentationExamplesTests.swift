// The code of the DocC articles (Sources/*/Documentation.docc), compiled as a user compiles it: this target sees
// only what the products make public.
import SingletonRegistry
import SingletonRegistryTesting
import Testing

// DeclaringSingletons.md's manager with a lifecycle (TripRecorder), its mock and the lifecycle example are the code
// of Examples/Sources/WeatherStation and Examples/Tests, which CI builds and tests as a user's package.

// DeclaringSingletons.md and TestingWithOverrides.md: a struct of closures, and a property wrapper over it.
struct ForecastClient: Sendable {
    var alerts: @Sendable () async throws -> [String]
}

enum ForecastClientKey: SingletonKey {
    static var liveValue: ForecastClient { ForecastClient(alerts: { [] }) }
    static var testValue: ForecastClient { ForecastClient(alerts: { [] }) }
}

extension AppSingletons {
    var forecastClient: ForecastClient {
        get { self[ForecastClientKey.self] }
        set { self[ForecastClientKey.self] = newValue }
    }
}

@RegistryActor
final class DailyReport {
    @Singleton(\.forecastClient) var forecasts

    func alerts() async throws -> [String] { try await forecasts.alerts() }
}

// ComingFromElsewhere.md: a main-actor struct's value as a key.
@RegistryActor
class NetworkManager {
    nonisolated init() {}
    func endpoint() -> String { "https://example.org" }
}

final class OfflineNetworkManager: NetworkManager {
    override func endpoint() -> String { "offline" }
}

enum NetworkKey: SingletonKey { static var liveValue: NetworkManager { NetworkManager() } }
extension AppSingletons {
    var network: NetworkManager {
        get { self[NetworkKey.self] }
        set { self[NetworkKey.self] = newValue }
    }
}

@Suite struct DocumentationExamplesTests {
    /// TestingWithOverrides.md: a test that enters a scope itself, with the trait's escape checks.
    @Test func aTestEntersACheckedScopeItself() async throws {
        let alerts = try await withCheckedSingletons({ $0.forecastClient.alerts = { ["fog"] } }) {
            try await appSingletons.forecastClient.alerts()
        }
        #expect(alerts == ["fog"])
    }

    /// README.md and TestingWithOverrides.md: code Swift Testing does not run says it is a test, as a user writes it
    /// (its issues would go to `XCTFail`; here, to the running test).
    @Test func codeOutsideSwiftTestingSaysItIsATest() async throws {
        let alerts = try await Task.detached {
            try await withTestSingletons(
                named: "testAlerts", reportingIssues: { Issue.record(Comment(rawValue: $0)) },
                { $0.forecastClient.alerts = { ["fog"] } }
            ) {
                try await appSingletons.forecastClient.alerts()
            }
        }.value
        #expect(alerts == ["fog"])
    }

    @Test(.singletons { $0.forecastClient.alerts = { ["gale warning"] } })
    func oneEndpointIsReplaced() async throws {
        let client = await appSingletons.forecastClient
        #expect(try await client.alerts() == ["gale warning"])
    }

    @Test @RegistryActor
    func aPropertyWrapperOverrideAppliesToOneInstance() async throws {
        let report = DailyReport()
        report.$forecasts.override = ForecastClient(alerts: { ["fog"] })
        #expect(try await report.alerts() == ["fog"])
        #expect(try await DailyReport().alerts() == [])
    }

    /// DeclaringSingletons.md and README.md: unimplemented endpoints, throwing and with a placeholder.
    @Test func unimplementedEndpointsAreReported() async {
        let client = ForecastClient(alerts: unimplemented("ForecastClient.alerts"))
        let count: @Sendable (String) -> Int = unimplemented("Client.count", placeholder: 0)
        await withKnownIssue {
            await #expect(throws: UnimplementedEndpointError(endpoint: "ForecastClient.alerts")) {
                try await client.alerts()
            }
            #expect(count("x") == 0)
        } matching: { issue in
            issue.comments.first?.rawValue.hasPrefix("Unimplemented: ") == true
        }
    }

    @Test(.singletons { $0.network = OfflineNetworkManager() })
    func aKeyReplacesTheMainActorStruct() async {
        #expect(await appSingletons.network.endpoint() == "offline")
    }
}

// withSingletons(_:operation:)'s example: the synchronous scope, on the actor.
struct Report {
    let clock: any Clock<Duration>
}

@RegistryActor func makeReport() -> Report {
    withSingletons({ $0.clock = TestClock() }) { Report(clock: appSingletons.clock) }
}

@Test func theSynchronousScopeBuildsAValueFromItsReplacements() async {
    let report = await makeReport()
    #expect(report.clock is TestClock)
}
