import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// `gpspipe -w` against the daemon's gpsd listener (`--listen`), compared with `gpspipe -w` against a real gpsd
/// (under gpsfake) fed the same log.
@Suite(.gpsdTools, .hangBound) struct GPSDListenerGpspipeTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/NMEA/multignss-midnight.nmea").path

    /// The path of one of gpsd's tools; the suite is `.gpsdTools`, so this fails only under CI=true.
    static func tool(_ name: String) throws -> String {
        try #require(Machine.path(of: name), "\(name) is missing: apt-get install gpsd gpsd-clients")
    }

    /// A line as a JSON object, gpsd's `\r` dropped; `nil` for a line that is not one.
    static func object(_ line: String) -> JSONValue? {
        try? JSONValue(parsing: line.hasSuffix("\r") ? String(line.dropLast()) : line)
    }

    /// The TPV objects among `lines`.
    static func tpvs(_ lines: [String]) -> [JSONValue] {
        lines.compactMap(object).filter { $0["class"]?.stringValue == "TPV" }
    }

    /// The daemon reads the log from a FIFO the test writes once gpspipe watches, so gpspipe sees the log's fixes
    /// from the first. gpsd replays the same log (looped, 10 ms a sentence) to its own gpspipe. The daemon's last
    /// TPV of each time must be one gpsd sent for the same time, member for member (the device's name aside: it is the
    /// source's): every member the daemon writes, gpsd's error estimates included, gpsd writes with the same value.
    @Test func tpvLinesAgreeWithGpsdOnTheSameLog() async throws {
        let gpsfake = try Self.tool("gpsfake")
        let gpspipe = try Self.tool("gpspipe")
        let directory = TemporaryDirectory()
        defer { directory.remove() }

        let fake = try await GPSFake.start(gpsfake, ["-n", "-q", "-c", "0.01", Self.fixture])
        defer { fake.process.kill() }
        let theirPipe = try ChildProcess(gpspipe, ["-w", "-n", "300", "127.0.0.1:\(fake.port)"], stdout: .pipe)
        defer { theirPipe.kill() }
        let theirs = Self.tpvs(await theirPipe.stdout.rest())
        #expect(await theirPipe.wait() == .exited(0))
        #expect(theirs.count >= 40, "gpspipe saw \(theirs.count) TPV lines from gpsd")

        let source = try HeldFIFO(directory.file("nmea"))
        defer { source.close() }
        let port = try freePort()
        let daemon = try SingletondProcess([
            "--nmea", source.path, "--listen", "\(port)", "--control", directory.file("c.sock"),
            "--output", "/dev/null", "--log-level", "debug",
        ])
        defer { daemon.kill() }
        #expect(await daemon.stderr.line(containing: "ready:", timeout: 60) != nil, "\(daemon.stderr.history)")
        // The log makes 20 fixes, each a TPV, and SKYs as the satellite view changes, which the listener sends
        // from a task of its own, in any number between the TPVs: the test reads until 8 TPVs came.
        let ourPipe = try ChildProcess(gpspipe, ["-w", "127.0.0.1:\(port)"], stdout: .pipe)
        defer { ourPipe.kill() }
        #expect(await daemon.stderr.line(containing: "gpsd: client 1 watches", timeout: 60) != nil)
        try writeAll(source.fd, try Data(contentsOf: URL(fileURLWithPath: Self.fixture)))
        var lines: [String] = []
        while Self.tpvs(lines).count < 8, let line = await ourPipe.stdout.nextLine(timeout: 60) { lines.append(line) }
        #expect(ourPipe.isRunning, "gpspipe ended: \(ourPipe.stdout.history)")

        let classes = lines.prefix(3).compactMap { Self.object($0)?["class"]?.stringValue }
        #expect(classes == ["VERSION", "DEVICES", "WATCH"], "\(lines.prefix(3))")
        #expect(lines.allSatisfy { $0.hasSuffix("\r") }, "gpsd's lines end with CRLF")
        let ours = Self.tpvs(lines)
        #expect(ours.count >= 8, "gpspipe saw \(lines)")
        for tpv in ours {
            #expect(tpv["device"]?.stringValue == source.path)
            let time = tpv["time"]?.stringValue
            // gpsd's partial fixes of the first cycle came before gpspipe connected (the looped log replays it
            // with the ender learned); GPSDSideBySide tests compare those, with both watching from the start.
            if tpv != ours.last(where: { $0["time"]?.stringValue == time }) { continue }
            let candidates = theirs.filter { $0["time"]?.stringValue == time }
            let agrees = candidates.contains { gpsd in
                tpv.objectValue?.allSatisfy { $0.key == "device" || gpsd[$0.key] == $0.value } ?? false
            }
            #expect(agrees, "ours \(tpv)\ngpsd's of the same time \(candidates)")
        }
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }

    /// The issue's own case: `singletond --nmea LOG --replay-speed 1 --listen PORT`, then `gpspipe -w -n 10`.
    /// gpspipe's TPV lines are, byte for byte, the lines a live source's decoder makes of the log with the file as
    /// the device (the first cycle's partial fixes included), in the log's order, and gpspipe exits 0. The log is a FIFO the test writes once gpspipe
    /// watches, so the replay's real-time pace starts then, whenever a loaded machine lets gpspipe connect.
    @Test func gpspipeReadsALogReplayedInRealTime() async throws {
        let gpspipe = try Self.tool("gpspipe")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let source = try HeldFIFO(directory.file("nmea"))
        defer { source.close() }
        let port = try freePort()
        let daemon = try SingletondProcess([
            "--nmea", source.path, "--replay-speed", "1", "--listen", "\(port)", "--control",
            directory.file("c.sock"), "--output", "/dev/null", "--log-level", "debug",
        ])
        defer { daemon.kill() }
        #expect(await daemon.stderr.line(containing: "ready:", timeout: 60) != nil, "\(daemon.stderr.history)")
        let pipe = try ChildProcess(gpspipe, ["-w", "-n", "10", "127.0.0.1:\(port)"], stdout: .pipe)
        defer { pipe.kill() }
        #expect(await daemon.stderr.line(containing: "gpsd: client 1 watches", timeout: 60) != nil)
        try writeAll(source.fd, try Data(contentsOf: URL(fileURLWithPath: Self.fixture)))
        let lines = await pipe.stdout.rest()
        #expect(await pipe.wait() == .exited(0))

        let log = Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixture)))
        let expected = NMEADecoder.decode(log, liveDevice: source.path).compactMap { event -> String? in
            guard case .fix(let fix) = event else { return nil }
            var line: [UInt8] = []
            GPSDJSONWriter.appendTPV(fix, device: source.path, newline: false, to: &line)
            return String(decoding: line, as: UTF8.self) + "\r"
        }
        let ours = lines.filter { $0.hasPrefix("{\"class\":\"TPV\"") }
        #expect(!ours.isEmpty, "gpspipe saw \(lines)")
        #expect(Array(expected.prefix(ours.count)) == ours, "gpspipe saw \(ours)\nthe log makes \(expected)")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }

    /// `gpspipe -r`: it asks for `"nmea":true` and prints what comes. Once it watches, the test writes the log to the
    /// daemon's FIFO: the sentences gpspipe prints are the log's, byte for byte and in order.
    ///
    /// `gpspipe -R` asks for `"raw":2`, which gpsd 3.22 serves for an NMEA source as it serves `nmea`: the
    /// sentences as they came (measured side by side: the same bytes for `nmea`, `raw` 1 and `raw` 2).
    @Test(arguments: ["-r", "-R"]) func gpspipeReadsTheRawSentences(_ flag: String) async throws {
        let gpspipe = try Self.tool("gpspipe")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let source = try HeldFIFO(directory.file("nmea"))
        defer { source.close() }
        let port = try freePort()
        let daemon = try SingletondProcess([
            "--nmea", source.path, "--listen", "\(port)", "--control", directory.file("c.sock"),
            "--output", "/dev/null", "--log-level", "debug",
        ])
        defer { daemon.kill() }
        #expect(await daemon.stderr.line(containing: "ready:", timeout: 60) != nil, "\(daemon.stderr.history)")
        let pipe = try ChildProcess(gpspipe, [flag, "-n", "33", "127.0.0.1:\(port)"], stdout: .pipe)
        defer { pipe.kill() }
        #expect(await daemon.stderr.line(containing: "gpsd: client 1 watches", timeout: 60) != nil)
        let log = try Data(contentsOf: URL(fileURLWithPath: Self.fixture))
        try writeAll(source.fd, log)
        let lines = await pipe.stdout.rest()
        #expect(await pipe.wait() == .exited(0))

        let sentences = lines.filter { !$0.hasPrefix("{") }.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        let expected = String(decoding: log, as: UTF8.self).split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("$") || $0.hasPrefix("!") }.map(String.init)
        #expect(sentences.count == 30, "gpspipe printed \(lines)")
        #expect(sentences == Array(expected.prefix(sentences.count)), "gpspipe printed \(sentences)")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }
}
