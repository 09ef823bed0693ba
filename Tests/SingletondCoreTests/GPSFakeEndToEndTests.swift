import Foundation
import TestSupport
import Testing

/// The daemon against a real gpsd (`gpsfake` replaying a fixture), compared with what `gpspipe -w` sees.
@Suite(.gpsdTools, .hangBound) struct GPSFakeEndToEndTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/NMEA/multignss-midnight.nmea").path

    /// The path of one of gpsd's tools; the suite is `.gpsdTools`, so this fails only under CI=true.
    static func tool(_ name: String) throws -> String {
        try #require(Machine.path(of: name), "\(name) is missing: apt-get install gpsd gpsd-clients")
    }

    /// The daemon watches first; gpspipe joins once the daemon has a fix and leaves after `reports` reports, so its
    /// TPV lines are a run of the broadcast whose every TPV the daemon writes: the daemon's output must hold that run,
    /// byte for byte but the device, which the daemon names as its gpsd listener does (`gpsd://HOST:PORT`). The log
    /// loops (no `-1`) at 10 ms a sentence, so the stream cannot end before gpspipe joins, however late a loaded
    /// machine starts it; the test waits only for events (log lines, gpspipe's exit, the daemon's lines that complete
    /// the run).
    @Test func tpvLinesMatchGpspipe() async throws {
        let gpsfake = try Self.tool("gpsfake")
        let gpspipe = try Self.tool("gpspipe")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let started = try await GPSFake.start(gpsfake, ["-n", "-q", "-c", "0.01", Self.fixture])
        let (fake, port) = (started.process, started.port)
        defer { fake.kill() }
        let daemon = try SingletondProcess(["--gpsd", "127.0.0.1:\(port)", "--control", directory.file("c.sock")])
        defer { daemon.kill() }
        // The daemon retries until gpsfake's gpsd listens; once it watches, gpsd opens the log's device.
        #expect(
            await daemon.stderr.line(containing: "location: fixed (gpsd") != nil,
            "gpsfake said: \(fake.errorOutput); the daemon: \(daemon.stderr.history)")
        let reports = 120
        let pipe = try ChildProcess(gpspipe, ["-w", "-n", "\(reports)", "127.0.0.1:\(port)"], stdout: .pipe)
        defer { pipe.kill() }
        // gpsd ends its lines with CRLF; the daemon with LF.
        let theirs = await pipe.stdout.rest().map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
            .filter { $0.contains("\"class\":\"TPV\"") }.map { Self.naming($0, device: "gpsd://127.0.0.1:\(port)") }
        #expect(await pipe.wait() == .exited(0))
        #expect(theirs.count >= 10, "gpspipe saw \(theirs.count) TPV lines")

        // The lines gpspipe saw last may still be on their way through the daemon: read until its output holds the
        // run, or until it has written more than enough lines to.
        var ours: [String] = []
        while !Self.contains(ours, run: theirs), ours.count < 10 * reports,
            let line = await daemon.stdout.nextLine(timeout: 60)
        {
            ours.append(line)
        }
        #expect(Self.contains(ours, run: theirs), "gpspipe saw \(theirs)\nthe daemon wrote \(ours)")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }

    /// `line` with the value of its `"device"` member replaced by `device`.
    static func naming(_ line: String, device: String) -> String {
        guard let member = line.range(of: "\"device\":\""),
            let end = line[member.upperBound...].firstIndex(of: "\"")
        else { return line }
        return line.replacingCharacters(in: member.upperBound..<end, with: device)
    }

    /// Whether `run` appears in `lines`, contiguously.
    static func contains(_ lines: [String], run: [String]) -> Bool {
        guard !run.isEmpty else { return true }
        guard lines.count >= run.count else { return false }
        return (0...(lines.count - run.count)).contains { lines[$0..<($0 + run.count)].elementsEqual(run) }
    }
}
