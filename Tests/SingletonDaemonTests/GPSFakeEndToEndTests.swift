import Foundation
import TestSupport
import Testing

/// The daemon against a real gpsd (`gpsfake` replaying a fixture), compared with what `gpspipe -w` sees.
@Suite(.serialized, .gpsdTools, .timeLimit(.minutes(3))) struct GPSFakeEndToEndTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/NMEA/multignss-midnight.nmea").path

    /// The path of one of gpsd's tools; the suite is `.gpsdTools`, so this fails only under CI=true.
    static func tool(_ name: String) throws -> String {
        try #require(Machine.path(of: name), "\(name) is missing: apt-get install gpsd gpsd-clients")
    }

    @Test func tpvLinesMatchGpspipe() async throws {
        let gpsfake = try Self.tool("gpsfake")
        let gpspipe = try Self.tool("gpspipe")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let port = try freePort()

        // gpsfake gets a `$TMPDIR` of its own (see ChildProcess.init's ownTemporaryDirectory).
        let fake = try ChildProcess(
            gpsfake, ["-1", "-q", "-P", "\(port)", "-c", "0.1", Self.fixture], stderr: .kept,
            ownTemporaryDirectory: true)
        defer { fake.kill() }
        let daemon = try DaemonProcess(["--gpsd", "127.0.0.1:\(port)", "--control", directory.file("c.sock")])
        defer { daemon.kill() }
        // The daemon retries until gpsfake's gpsd listens; once it watches, gpsd opens the log's device.
        #expect(
            await daemon.stderr.line(containing: "location: waiting for a fix from gpsd") != nil,
            "\(daemon.stderr.history)")
        let pipe = try ChildProcess(gpspipe, ["-w", "127.0.0.1:\(port)"], stdout: .pipe)
        defer { pipe.kill() }

        // At the end of the log gpsd reports the device gone (DEVICE "activated":0), to both clients; the daemon
        // then waits for a fix again, after delivering every fix before it.
        #expect(
            await daemon.stderr.line(containing: "location: fixed (gpsd") != nil, "gpsfake said: \(fake.errorOutput)")
        #expect(await daemon.stderr.line(containing: "location: waiting for a fix from gpsd", timeout: 60) != nil)
        var pipeLines: [String] = []
        // gpsd ends its lines with CRLF; the daemon with LF.
        while let line = await pipe.stdout.nextLine(timeout: 60).map({ $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        ) {
            if line.contains("\"class\":\"TPV\"") { pipeLines.append(line) }
            if line.contains("\"class\":\"DEVICE\""), line.contains("\"activated\":0") { break }
        }
        pipe.kill()
        daemon.signal(SIGTERM)
        let daemonLines = await daemon.stdout.rest()
        #expect(await daemon.exitStatus() == 0)

        // One of the two joined first; from the first line both saw, the lines are the same to the end.
        guard let firstCommon = pipeLines.first(where: daemonLines.contains),
            let a = daemonLines.firstIndex(of: firstCommon), let b = pipeLines.firstIndex(of: firstCommon)
        else {
            Issue.record("no TPV line in common:\n\(daemonLines.prefix(3))\n\(pipeLines.prefix(3))")
            return
        }
        let ours = Array(daemonLines[a...])
        let theirs = Array(pipeLines[b...])
        #expect(ours.count >= 10, "only \(ours.count) lines compared")
        #expect(ours == theirs)
        fake.kill()
    }
}
