import SingletonRegistry
import SingletonRegistryTesting
import Testing
import WeatherStation

/// A startup value set after it was read is reported: as an issue of a test that runs the startup code after
/// reading the value, and as a warning through `RegistryWarnings.handler` in a program (a detached task here runs
/// for no test, as `main` does).
@Suite struct StartupTests {
    /// A key of this suite's own: the process-wide container is shared by every test of the run.
    enum StartupNameKey: SingletonKey { static var liveValue: String { "default" } }

    @RegistryActor static var warnings: [String] = []

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

    @Test func aProgramThatPreparesAValueAfterReadingItIsWarned() async {
        await { @RegistryActor in RegistryWarnings.handler = { StartupTests.warnings.append($0) } }()
        let names = await Task.detached {
            let before = await appSingletons[StartupNameKey.self]
            await prepareSingletons { $0[StartupNameKey.self] = "prepared" }
            return [before, await appSingletons[StartupNameKey.self]]
        }.value
        #expect(names == ["default", "prepared"])
        let warnings = await Self.warnings.filter {
            $0.hasPrefix("appSingletons.startupName was set after it was read")
        }
        #expect(warnings.count == 1)
    }
}
