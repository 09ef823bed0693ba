import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// One name for the daemon's source in every reply and report: the `fix` reply, the status (its `source`, its
/// `description` and its fix) and the ready line name an NMEA TCP peer `tcp://127.0.0.1:PORT`, as the output's TPV
/// lines, the watchers and the gpsd listener do. Before, `fix` named `NMEA tcp 127.0.0.1:PORT` (the location
/// manager's name for the source) and the status and the ready line did too; the log's `opening …` and `location:`
/// lines still did, until the location manager's name for a source became the reports' device name.
@Suite(.hangBound) struct DeviceNameTests {
    @Test func fixAndStatusNameTheDeviceAsTheOutputDoes() async throws {
        let nmea =
            NMEAChecksum.sentence("GPRMC,100000.00,A,5221.480,N,00452.300,E,001.0,090.0,221126,,,A")
            + NMEAChecksum.sentence("GPGGA,100000.00,5221.480,N,00452.300,E,1,08,0.9,10.0,M,46.9,M,,")
        // The peer sends one fix and holds the connection until the daemon closes it.
        let peer = try LoopbackPeer { connection in
            try? writeAll(connection, nmea)
            LoopbackPeer.serveRequests(connection, seconds: 60)
        }
        defer { peer.close() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("c.sock")
        let daemon = try SingletondProcess(["--nmea-tcp", "127.0.0.1:\(peer.port)", "--control", path])
        defer { daemon.kill() }
        let device = "tcp://127.0.0.1:\(peer.port)"
        let output = try #require(await daemon.stdout.nextLine(timeout: 60), "\(daemon.stderr.history)")
        #expect(output.contains("\"device\":\"\(device)\""), "the output's name: \(output)")
        let ready = await daemon.stderr.line(containing: " ready: ", timeout: 60)
        #expect(ready?.contains(" ready: \(device), control socket") == true, "\(ready ?? "none")")

        let client = try #require(StreamClient(path: path))
        client.send("{\"cmd\":\"fix\"}\n{\"cmd\":\"status\"}\n")
        let fix = try #require(await client.readLine())
        #expect(fix.hasPrefix("{\"class\":\"TPV\",\"device\":\"\(device)\","), "\(fix)")
        let status = try #require(await client.readLine())
        #expect(status.contains("\"source\":\"\(device)\""), "\(status)")
        #expect(status.contains("\"fix\":{\"class\":\"TPV\",\"device\":\"\(device)\","), "\(status)")
        let description = try #require(
            status.firstRange(of: "\"description\":\"").map { status[$0.upperBound...].prefix { $0 != "\"" } })
        #expect(description.contains(device), "\(status)")
        #expect(!status.contains("NMEA tcp"), "\(status)")

        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        // And so do the log's lines: opening the source, and the location manager's states.
        let log = daemon.stderr.history + (await daemon.stderr.rest())
        #expect(log.contains { $0.hasSuffix("info: opening \(device)") }, "\(log)")
        #expect(log.contains { $0.hasSuffix("info: location: fixed (\(device))") }, "\(log)")
        #expect(!log.contains { $0.contains("NMEA tcp") }, "\(log)")
    }
}
