import GNSSLocation
import GNSSLocationTesting
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import Testing

/// The test paces the fixes: a `ScriptedLocationManager` with an empty script replaces the shared manager, and
/// the test delivers each fix through it once the code under test has started it.
@Suite struct TestPacedLocationTests {
    /// Code under test: starts the shared location manager on gpsd and returns the first `count` positions.
    @RegistryActor
    static func firstPositions(_ count: Int) async throws -> [Double] {
        let manager = appSingletons.locationManager
        let updates = manager.updates()
        try await manager.start(.gpsd())
        var latitudes: [Double] = []
        for await update in updates {
            latitudes.append(update.fix.latitude ?? .nan)
            if latitudes.count == count { break }
        }
        return latitudes
    }

    @Test(.singletons { $0.locationManager = ScriptedLocationManager(script: []).withoutLiveTimeouts() })
    @RegistryActor
    func theCodeUnderTestReadsTheFixesTheTestDelivers() async throws {
        let mock = try #require(appSingletons.locationManager as? ScriptedLocationManager)
        let states = mock.stateChanges()
        let positions = Task { try await Self.firstPositions(3) }
        // The code under test subscribed before it started the manager, which now waits for a fix.
        for await state in states where state.name == "waiting" { break }
        #expect(mock.requestedSources == [.gpsd()], "nothing was opened: the mock only recorded the request")
        let fixes = (1...3).map { n in
            Fix(
                mode: .threeD, time: GNSSTime(millisecondsSince1970: 1_795_348_800_000 + Int64(n) * 1_000),
                latitude: 47 + Double(n) / 1_000, longitude: 8)
        }
        for fix in fixes { mock.deliver(fix) }
        #expect(try await positions.value == [47.001, 47.002, 47.003])
        #expect(mock.lastFix == fixes.last)
        #expect(mock.state.name == "fixed")
    }
}
