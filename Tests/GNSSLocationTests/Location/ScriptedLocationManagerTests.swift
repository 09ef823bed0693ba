import GNSSLocation
import GNSSLocationTesting
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// `ScriptedLocationManager` plays its script through the real delivery path, stops when told, and replays on start.
@Suite(.hangBound) struct ScriptedLocationManagerTests {
    static let script = (1...5).map { n in
        Fix(
            mode: .threeD, time: GNSSTime(millisecondsSince1970: 1_795_348_800_000 + Int64(n) * 1_000),
            latitude: 47 + Double(n) / 1_000, longitude: 8)
    }

    @Test @RegistryActor
    func stoppingEndsThePlayAndStartingAgainReplaysIt() async throws {
        let slow = ScriptedLocationManager(script: Self.script, interval: .seconds(3_600))
        try await slow.start(.nmeaSerial(path: "/dev/ttyUSB0", baud: 9_600))
        #expect(slow.state.name == "waiting")
        await slow.shutdown()
        #expect(slow.state == .idle)
        #expect(slow.fixCount == 0, "a stopped play delivers nothing")

        let manager = ScriptedLocationManager(script: Self.script).withoutLiveTimeouts()
        var fixes = FixReader(manager.updates())
        try await manager.start(.gpsd())
        #expect(await fixes.read(Self.script.count) == Self.script)
        try await manager.start(.gpsd())
        #expect(await fixes.read(Self.script.count) == Self.script)
        #expect(manager.requestedSources.count == 2)
        await manager.shutdown()
    }
}

/// `ScriptedLocationManager` installed with the `.singletons` trait feeds a subscriber without opening anything.
@Suite struct ScriptedLocationManagerTraitTests {
    @Test(
        .singletons {
            $0.locationManager = ScriptedLocationManager(
                script: ScriptedLocationManagerTests.script, interval: .milliseconds(5))
        })
    @RegistryActor
    func theTraitInstallsItAndASubscriberGetsTheScript() async throws {
        let script = ScriptedLocationManagerTests.script
        let location = appSingletons.locationManager
        let scripted = try #require(location as? ScriptedLocationManager)
        var fixes = FixReader(location.updates())
        try await location.start(.gpsd())
        #expect(await fixes.read(script.count) == script)
        #expect(scripted.requestedSources == [.gpsd()])
        #expect(location.lastFix == script.last)
        #expect(location.state.name == "fixed")
        await location.shutdown()
        #expect(location.state == .idle)
    }
}
