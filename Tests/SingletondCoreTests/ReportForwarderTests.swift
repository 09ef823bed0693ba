import Foundation
import GNSSLocation
import GNSSLocationTesting
import SingletonRegistry
import SingletonRegistryTesting
import SingletondCore
import TestSupport
import Testing

/// The daemon's one reader of the location events: one TPV encoding per fix, the same bytes to the output, the
/// control socket's watchers and the gpsd listener's.
@Suite(.hangBound) struct ReportForwarderTests {
    static let logger = LogWriter(minimumLevel: .error, journalFormat: false, clock: ContinuousClock())
    static let count = 50

    @Test(.singletons { $0.locationManager = ScriptedLocationManager(script: GPSDListenerServiceTests.fixes(count)) })
    func eachFixIsEncodedOnceAndEveryDestinationGetsTheSameBytes() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let output = try FixOutput(path: directory.file("fixes"), logger: Self.logger, clock: TestClock())
        let control = try ControlServer.bind(path: directory.file("c.sock"), logger: Self.logger, clock: TestClock())
        try control.start { request, requester in
            guard case .watch(let enable) = request else { return }
            requester.setWatching(enable)
            requester.send(Array("{\"class\":\"WATCH\"}\n".utf8))
        }
        let forwarder = ReportForwarder(devicePath: "/dev/scripted", includesSentences: true, logger: Self.logger)
        let manager = await appSingletons.locationManager
        await forwarder.start(from: manager, output: output, control: control)
        let port = try freePort()
        let service = GPSDListenerService(address: ListenAddress(port: port), forwarder: forwarder, logger: Self.logger)
        try await service.start()

        let watcher = try #require(StreamClient(path: directory.file("c.sock")))
        watcher.send("{\"cmd\":\"watch\"}\n")
        #expect(await watcher.readLine(containing: "\"class\":\"WATCH\"") != nil)
        let client = try #require(StreamClient(port: port))
        client.send("?WATCH={\"enable\":true,\"json\":true}\n")
        #expect(await client.readLine(containing: "\"class\":\"WATCH\"") != nil)

        try await manager.start(.nmeaFile(path: "/dev/scripted"))
        let last = try #require(GPSDListenerServiceTests.fixes(Self.count).last?.time.map { String(describing: $0) })
        let controlLines = try #require(await watcher.readLines(through: last))
        let listenerLines = try #require(await client.readLines(through: last))
        await manager.shutdown()
        await service.shutdown()
        await forwarder.stop()
        await output.close()
        await control.stop()

        let isTPV = { (line: String) in line.hasPrefix("{\"class\":\"TPV\"") }
        let outputLines = try String(contentsOfFile: directory.file("fixes"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let outputTPVs = outputLines.filter(isTPV)
        #expect(outputTPVs.count == Self.count)
        #expect(outputTPVs.allSatisfy { $0.contains("\"device\":\"/dev/scripted\"") })
        #expect(controlLines.filter(isTPV) == outputTPVs, "the watcher's lines are the output's")
        #expect(
            listenerLines.filter(isTPV).map { String($0.dropLast()) } == outputTPVs,
            "the listener's lines are the output's, with gpsd's \\r")
        #expect(forwarder.encodedTPVCount == Self.count, "one encoding per fix for three destinations")
    }
}
