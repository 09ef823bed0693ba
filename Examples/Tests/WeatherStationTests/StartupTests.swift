import SingletonRegistry
import SingletonRegistryTesting
import Testing
import WeatherStation

/// A startup value set after it was read is reported as an issue of a test that runs the startup code after reading
/// the value (in a program, the same mistake is a warning through `RegistryWarnings.handler`). Code of a test
/// process that runs for no test (a detached task) never reads a live value: it gets the key's test value.
@Suite struct StartupTests {
    /// A key of this suite's own: the process-wide container is shared by every test of the run.
    enum StartupNameKey: SingletonKey {
        static var liveValue: String { "default" }
        static var testValue: String { "test" }
    }

    @Test func startupCodeThatRunsAfterAReadIsAnIssueOfTheTest() async {
        await withKnownIssue {
            #expect(await appSingletons.stationConfiguration.name == "test bench")
            await StationStartup.prepare(name: "roof")
            #expect(await appSingletons.stationConfiguration.name == "roof")
        } matching: { issue in
            "\(issue.kind)".contains("appSingletons.stationConfiguration was set after it was read")
        }
    }

    @Test func startupCodeThatRunsBeforeAnyReadIsNoIssue() async {
        await StationStartup.prepare(name: "roof")
        #expect(await appSingletons.stationConfiguration.name == "roof")
    }

    @Test func aDetachedTaskInATestProcessReadsTheTestValueNeverTheLiveOne() async {
        let name = await Task.detached { await appSingletons[StartupNameKey.self] }.value
        #expect(name == "test")
    }
}
