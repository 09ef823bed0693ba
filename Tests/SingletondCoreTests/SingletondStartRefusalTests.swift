import Foundation
import SingletondCore
import TestSupport
import Testing

/// What can refuse the daemon's start (its output, its control socket, the listener's port) refuses it before the
/// source opens: the daemon exits 1 having written no fix.
@Suite(.hangBound) struct SingletondStartRefusalTests {
    @Test func aListenPortThatIsTakenRefusesTheStartBeforeAnyFixIsWritten() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let track = directory.file("track.nmea")
        try Data(DemoTrack.nmea()).write(to: URL(fileURLWithPath: track))
        let taken = try LoopbackPeer(port: try freePort())
        let result = try await SingletondProcess.run([
            "--nmea", track, "--control", directory.file("c.sock"), "--listen", "127.0.0.1:\(taken.port)",
        ])
        #expect(result.status == 1)
        #expect(result.stdout.count == 0, "no TPV is written before the refusal")
        #expect(
            result.stderr.contains { $0.contains("gpsd listener: cannot listen on 127.0.0.1:\(taken.port)") },
            "\(result.stderr)")
        #expect(!result.stderr.contains { $0.contains("opening") }, "the source is never opened: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("c.sock")), "the control socket is removed")
    }
}
