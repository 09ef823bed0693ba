import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// In a test, what a configure closure modifies (`$0.x.endpoint = ...`) starts from the value the test would read,
/// never from the live value; a value made while the closure runs sees what it set so far; a live value is made
/// from live values, whoever asks for it first.
@Suite(.hangBound) struct PartialReplacementTests {
    /// A station: a struct whose test value differs from its live value in every member.
    struct Station: Sendable, Equatable {
        var name: String
        var endpoint: String
    }

    enum StationKey: SingletonKey {
        static var liveValue: Station { Station(name: "live", endpoint: "https://live.invalid") }
        static var testValue: Station { Station(name: "test", endpoint: "test://") }
    }

    /// A reporter that takes the station as it is made, as a manager's `init` often does.
    struct Reporter: Sendable {
        var station: Station
    }

    enum ReporterKey: SingletonKey {
        static var liveValue: Reporter { Reporter(station: appSingletons[StationKey.self]) }
        static var testValue: Reporter { Reporter(station: appSingletons[StationKey.self]) }
    }

    /// A reporter whose live value is made in the tests below: no other test reads it.
    enum LiveReporterKey: SingletonKey {
        static var liveValue: Reporter { Reporter(station: appSingletons[StationKey.self]) }
        static var testValue: Reporter { Reporter(station: Station(name: "unused", endpoint: "")) }
    }

    /// A key with no test value.
    enum BareStationKey: SingletonKey {
        static var liveValue: Station { Station(name: "live", endpoint: "https://live.invalid") }
    }

    @Test(.singletons { $0[StationKey.self].name = "renamed" })
    func theTraitsPartialReplacementStartsFromTheTestValue() async {
        #expect(await appSingletons[StationKey.self] == Station(name: "renamed", endpoint: "test://"))
    }

    @Test func withSingletonsInATestStartsFromTheTestValue() async {
        let seen = await withSingletons({ $0[StationKey.self].name = "renamed" }) {
            await appSingletons[StationKey.self]
        }
        #expect(seen == Station(name: "renamed", endpoint: "test://"))
    }

    @Test func aNestedPartialReplacementStartsFromTheEnclosingReplacement() async {
        let seen = await withSingletons({ $0[StationKey.self] = Station(name: "outer", endpoint: "outer://") }) {
            await withSingletons({ $0[StationKey.self].name = "inner" }) { await appSingletons[StationKey.self] }
        }
        #expect(seen == Station(name: "inner", endpoint: "outer://"))
    }

    @Test func aPartialReplacementOfAKeyWithoutATestValueIsReportedNamingTheKey() async {
        await withKnownIssue {
            _ = await withSingletons({ $0[BareStationKey.self].name = "renamed" }) {
                await appSingletons[BareStationKey.self]
            }
        } matching: { issue in
            "\(issue)".contains("BareStationKey declares no testValue")
        }
    }

    @Test(.singletons { $0[StationKey.self] = Station(name: "suite's", endpoint: "s://") })
    func aTestValueMadeWhileTheClosureRunsSeesWhatItSetSoFar() async {
        let made = await withSingletons({ scope in
            scope[StationKey.self] = Station(name: "configured", endpoint: "c://")
            scope[ReporterKey.self] = scope[ReporterKey.self]
        }) { await appSingletons[ReporterKey.self] }
        #expect(made.station.name == "configured", "made in the closure after the station was set")
    }

    @Test(
        .singletons {
            $0[StationKey.self] = Station(name: "configured", endpoint: "c://")
            _ = $0[ReporterKey.self]
        })
    func aTestValueMadeInTheTraitsClosureSeesWhatItSetSoFar() async {
        #expect(await appSingletons[ReporterKey.self].station.name == "configured")
    }

    @Test func aLiveValueMadeInsideATestIsMadeFromLiveValues() async {
        await withLiveSingletons { await Self.checkALiveValueIsMadeFromLiveValues() }
    }

    static func checkALiveValueIsMadeFromLiveValues() async {
        let scoped = Station(name: "the test's", endpoint: "t://")
        let live = await withSingletons({ $0[StationKey.self] = scoped }) {
            await AppSingletons()[LiveReporterKey.self]
        }
        let liveStation = Station(name: "live", endpoint: "https://live.invalid")
        #expect(live.station == liveStation, "a live value never holds a test's value")
        #expect(await AppSingletons()[LiveReporterKey.self].station == liveStation)
    }
}
