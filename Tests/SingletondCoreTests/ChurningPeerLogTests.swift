import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// A source that gives one fix per connection and closes, for gpsd and for NMEA over TCP: the daemon keeps
/// reconnecting and tracking, and its log says so once, then counts. Before, each connection logged three lines
/// (43 connections and 137 lines in 10 s).
@Suite(.serialized, .hangBound) struct ChurningPeerLogTests {
    static let nmea =
        NMEAChecksum.sentence("GPRMC,100000.00,A,5221.480,N,00452.300,E,001.0,090.0,221126,,,A")
        + NMEAChecksum.sentence("GPGGA,100000.00,5221.480,N,00452.300,E,1,08,0.9,10.0,M,46.9,M,,")
    static let gpsd =
        "{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}\n"
        + "{\"class\":\"TPV\",\"device\":\"/dev/ttyUSB0\",\"mode\":3,\"time\":\"2026-11-22T10:00:00.000Z\","
        + "\"lat\":52.358,\"lon\":4.871,\"alt\":10.0}\n"

    @Test(arguments: [("--nmea-tcp", nmea), ("--gpsd", gpsd)])
    func aPeerThatSendsOneFixPerConnectionIsLoggedOnceThenCounted(flag: String, bytes: String) async throws {
        let (connections, served) = AsyncStream<Void>.makeStream()
        let peer = try LoopbackPeer { connection in
            try? writeAll(connection, bytes)
            LoopbackPeer.finish(connection)
            served.yield()
        }
        defer { peer.close() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let daemon = try SingletondProcess([flag, "127.0.0.1:\(peer.port)", "--control", directory.file("c.sock")])
        defer { daemon.kill() }
        var count = 0
        for await _ in connections {
            count += 1
            if count == 30 { break }
        }
        #expect(await daemon.stdout.nextLine() != nil, "the fixes reach the output")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        _ = await daemon.stderr.rest()
        let lines = daemon.stderr.history.filter { $0.contains("location:") }
        // The first connection's states, the second's (the run of reconnections starts), a count at the stop, idle.
        #expect(lines.count <= 10, "\(lines)")
        #expect(lines.contains { $0.contains("fixed (") }, "\(lines)")
    }
}
