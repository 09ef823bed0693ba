import GNSSLocationTesting
import SingletondCore
import TestSupport
import Testing

/// A listener outside loopback serves positions to every host that can reach it: the start says so.
extension GPSDListenerServiceTests {
    /// The lines the service logs while it starts on `octets` and `port`.
    static func startLog(octets: [UInt8], port: UInt16) async throws -> [Substring] {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try CapturedLog(in: directory)
        let forwarder = ReportForwarder(devicePath: "/dev/scripted", includesSentences: true, logger: log.logger)
        let service = GPSDListenerService(
            address: ListenAddress(octets: octets, port: port), forwarder: forwarder, logger: log.logger)
        try await service.start()
        await service.shutdown()
        return try log.lines()
    }

    @Test(.singletons { $0.locationManager = ScriptedLocationManager(script: []) })
    func aListenerOnEveryInterfaceWarnsAtStart() async throws {
        let port = try freePort()
        let lines = try await Self.startLog(octets: [0, 0, 0, 0], port: port)
        let warnings = lines.filter { $0.contains("warning:") }
        #expect(warnings.count == 1, "\(lines)")
        #expect(
            warnings.first?.hasSuffix(
                "warning: gpsd listener on 0.0.0.0:\(port) is not a loopback address: it serves positions to every "
                    + "host that can reach it, without access control") == true, "\(lines)")
    }

    @Test(.singletons { $0.locationManager = ScriptedLocationManager(script: []) })
    func aListenerOnLoopbackDoesNotWarn() async throws {
        let lines = try await Self.startLog(octets: [127, 0, 0, 1], port: try freePort())
        #expect(lines.contains { $0.contains("gpsd listener on 127.0.0.1:") }, "\(lines)")
        #expect(!lines.contains { $0.contains("warning:") }, "\(lines)")
    }
}
