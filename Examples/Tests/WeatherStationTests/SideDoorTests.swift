import Dispatch
import SingletonRegistry
import SingletonRegistryTesting
import Testing

/// A user's client with live endpoints that reach the network and test endpoints that do not.
struct Buoy: Sendable, Equatable {
    var name: String
    var endpoint: String
}

enum BuoyKey: SingletonKey {
    static var liveValue: Buoy { Buoy(name: "live buoy", endpoint: "https://buoys.invalid") }
    static var testValue: Buoy { Buoy(name: "test buoy", endpoint: "test://") }
}

/// A reporter that takes the buoy when it is made, as a manager's `init` often does.
struct BuoyReporter: Sendable {
    var buoy: Buoy
}

enum BuoyReporterKey: SingletonKey {
    static var liveValue: BuoyReporter { BuoyReporter(buoy: appSingletons.buoy) }
    static var testValue: BuoyReporter { BuoyReporter(buoy: appSingletons.buoy) }
}

/// The reporter whose live value the test below makes: no other test reads it.
enum LiveBuoyReporterKey: SingletonKey {
    static var liveValue: BuoyReporter { BuoyReporter(buoy: appSingletons.buoy) }
    static var testValue: BuoyReporter { BuoyReporter(buoy: Buoy(name: "unused", endpoint: "")) }
}

extension AppSingletons {
    var buoy: Buoy {
        get { self[BuoyKey.self] }
        set { self[BuoyKey.self] = newValue }
    }
    var buoyReporter: BuoyReporter {
        get { self[BuoyReporterKey.self] }
        set { self[BuoyReporterKey.self] = newValue }
    }
}

/// No side door to the live world: a partial replacement starts from the test value, a value made while a configure
/// closure runs sees what it set, a container made by hand gives test values, and a Dispatch callback keeps the test's
/// values through `withEscapedSingletons`.
@Suite struct SideDoorTests {
    @Test(.singletons { $0.buoy.name = "renamed" })
    func aPartialReplacementStartsFromTheTestValue() async {
        #expect(await appSingletons.buoy == Buoy(name: "renamed", endpoint: "test://"))
    }

    @Test(
        .singletons {
            $0.buoy = Buoy(name: "configured", endpoint: "c://")
            $0.buoyReporter = $0.buoyReporter
        })
    func aValueMadeInTheClosureSeesWhatItSetSoFar() async {
        #expect(await appSingletons.buoyReporter.buoy.name == "configured")
    }

    /// A container made by hand inside a test is a test's too: a key it does not hold gives the key's test value,
    /// never the live one.
    @Test(.singletons { $0.buoy = Buoy(name: "the test's", endpoint: "t://") })
    func aHandMadeContainerInATestGivesTheTestValueNeverTheLiveOne() async {
        let reporter = await AppSingletons()[LiveBuoyReporterKey.self]
        #expect(reporter.buoy == Buoy(name: "unused", endpoint: ""))
    }

    @Test(.singletons { $0.buoy = Buoy(name: "the test's", endpoint: "t://") })
    func aDispatchCallbackKeepsTheTestsValues() async {
        let name = await withCheckedContinuation { continuation in
            withEscapedSingletons { escaped in
                DispatchQueue.global().async {
                    escaped.yield {
                        _ = Task { continuation.resume(returning: await appSingletons.buoy.name) }
                    }
                }
            }
        }
        #expect(name == "the test's")
    }
}
