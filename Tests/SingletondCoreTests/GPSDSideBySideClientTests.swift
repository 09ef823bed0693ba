import Foundation
import TestSupport
import Testing

/// gpsd's clients `gpxlogger` and `gps2udp`, and the `gps` module of python3-gps, against the daemon's gpsd
/// listener and against a real gpsd fed the same log in the same test (``SideBySide``): what each client makes of
/// the daemon's stream must be what it makes of gpsd's.
@Suite(.gpsdTools, .hangBound) struct GPSDSideBySideClientTests {
    /// Starts `make(server)` for gpsd's server and for the daemon's, waits until both watch and feeds the log;
    /// returns the two clients, gpsd's first. The caller kills them.
    static func run(
        _ pair: SideBySide, _ make: (String) throws -> ChildProcess
    ) async throws -> (gpsd: ChildProcess, daemon: ChildProcess) {
        let theirs = try make(pair.server(ofGpsd: true))
        let ours = try make(pair.server(ofGpsd: false))
        try await pair.waitForWatchers()
        try pair.feedLog()
        return (theirs, ours)
    }

    /// `gpxlogger -i 600 -f FILE`: the track points it writes (latitude, longitude, elevation, time) are those it writes
    /// from gpsd, one for each time, the first one included.
    @Test(.requires([.tool("gpxlogger", package: "gpsd-clients")])) func gpxloggerWritesGpsdsTrack() async throws {
        let gpxlogger = try SideBySide.tool("gpxlogger")
        let pair = try await SideBySide.start()
        let files = (pair.directory.file("gpsd.gpx"), pair.directory.file("ours.gpx"))
        let (theirs, ours) = try await Self.run(pair) { server in
            // -i 600: gpxlogger gives up after this many seconds without a report (5 by default), which a loaded
            // machine has passed between the watch and the log's first fix; ten minutes only catches a hang.
            try ChildProcess(
                gpxlogger, ["-i", "600", "-f", server.hasSuffix(":\(pair.gpsdPort)") ? files.0 : files.1, server])
        }
        defer { theirs.kill() }
        defer { ours.kill() }
        // gpxlogger writes each point as it comes: the file is read until it holds the log's last time.
        let last = "<time>\(SideBySide.lastTime)</time>"
        func track(_ path: String, of client: ChildProcess) async throws -> String {
            let text = try await Polling.firstAnswer(while: { client.isRunning }) {
                (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { $0.contains(last) ? $0 : nil }
            }
            return text ?? ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
        }
        let gpsdTrack = Self.trackPoints(try await track(files.0, of: theirs))
        let ourTrack = Self.trackPoints(try await track(files.1, of: ours))
        await pair.stop()
        #expect(gpsdTrack.count == 20, "gpxlogger wrote from gpsd \(gpsdTrack)")
        #expect(ourTrack.count == gpsdTrack.count, "ours \(ourTrack)\ngpsd's \(gpsdTrack)")
        // The first point included: while no cycle has ended, gpsd and singletond send a fix after each sentence
        // that sets a position or mode, so the first point has no elevation from either.
        let differing = zip(ourTrack, gpsdTrack).filter { $0 != $1 }.map { "\($0) / \($1)" }
        #expect(differing.isEmpty, "track points, ours / gpsd's:\n\(differing.joined(separator: "\n"))")
    }

    /// The track points of a GPX file: `lat lon ele time` of each, `-` for a missing elevation.
    static func trackPoints(_ gpx: String) -> [String] {
        gpx.components(separatedBy: "<trkpt ").dropFirst().map { point in
            let point = point.components(separatedBy: "</trkpt>")[0]
            func between(_ start: String, _ end: String) -> String {
                guard let from = point.range(of: start), let to = point[from.upperBound...].range(of: end) else {
                    return "-"
                }
                return String(point[from.upperBound..<to.lowerBound])
            }
            return [between("lat=\"", "\""), between("lon=\"", "\""), between("<ele>", "<"), between("<time>", "<")]
                .joined(separator: " ")
        }
    }

    /// `gps2udp -n`: the datagrams it sends to a UDP socket the test owns are those it sends from gpsd, byte for
    /// byte: the log's sentences that passed their checksum, each with its own line ending.
    @Test(.requires([.tool("gps2udp", package: "gpsd-clients")])) func gps2udpSendsGpsdsSentences() async throws {
        let gps2udp = try SideBySide.tool("gps2udp")
        let pair = try await SideBySide.start()
        let receivers = (try UDPReceiver(), try UDPReceiver())
        let (theirs, ours) = try await Self.run(pair) { server in
            let port = server.hasSuffix(":\(pair.gpsdPort)") ? receivers.0.port : receivers.1.port
            return try ChildProcess(gps2udp, ["-n", "-u", "127.0.0.1:\(port)", server])
        }
        defer { theirs.kill() }
        defer { ours.kill() }
        func datagrams(_ receiver: UDPReceiver) async -> [String] {
            var received: [String] = []
            while received.count < 2_000, let datagram = await receiver.receive() {
                received.append(String(decoding: datagram, as: UTF8.self))
                if received.last?.hasPrefix(SideBySide.endMarker) == true { break }
            }
            return received
        }
        async let gpsdReceived = datagrams(receivers.0)
        async let ourReceived = datagrams(receivers.1)
        let (gpsdDatagrams, ourDatagrams) = await (gpsdReceived, ourReceived)
        await pair.stop()
        #expect(gpsdDatagrams.count == SideBySide.relayedSentences.count, "gps2udp sent from gpsd \(gpsdDatagrams)")
        let index = zip(ourDatagrams, gpsdDatagrams).enumerated().first { $1.0 != $1.1 }?.offset
        let same = ourDatagrams == gpsdDatagrams
        #expect(
            same,
            """
            \(ourDatagrams.count) datagrams, gpsd's \(gpsdDatagrams.count); the first that differs: \
            \(index.map { "\(ourDatagrams[$0].debugDescription) / \(gpsdDatagrams[$0].debugDescription)" } ?? "-")
            """)
    }

    /// The `gps` module of python3-gps: each epoch's last TPV, read as the module gives it (the report's `eph`,
    /// the session's `fix.epx`, `fix.epy`, `fix.epv`), and the last SKY's `xdop`, `ydop`, `tdop`, `gdop` as the
    /// session holds them, are figures, not NaN, and gpsd's. (python3-gps 3.22 never sets `session.fix.eph`: it
    /// stays NaN for gpsd too, so the report's `eph` is the one a script reads.)
    @Test(.requires([Requirement.pythonGPS])) func pythonClientReadsGpsdsErrorEstimates() async throws {
        let pair = try await SideBySide.start()
        let script = pair.directory.file("client.py")
        try """
        import sys, gps
        session = gps.gps(host="127.0.0.1", port=int(sys.argv[1]), mode=gps.WATCH_ENABLE | gps.WATCH_JSON)
        for report in session:
            if report["class"] == "TPV":
                fix = session.fix
                print("TPV", report.get("time"), report.get("eph", float("nan")), fix.epx, fix.epy, fix.epv, flush=True)
                if report.get("time") == "\(SideBySide.lastTime)":
                    break
            elif report["class"] == "SKY":
                print("SKY", session.xdop, session.ydop, session.tdop, session.gdop, flush=True)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let (theirs, ours) = try await Self.run(pair) { server in
            let port = String(server.split(separator: ":").last ?? "")
            return try ChildProcess("/usr/bin/python3", [script, port], stdout: .pipe, stderr: .kept)
        }
        defer { theirs.kill() }
        defer { ours.kill() }
        let gpsdLines = await theirs.stdout.rest()
        let ourLines = await ours.stdout.rest()
        #expect(await theirs.wait() == .exited(0), "python said: \(theirs.errorOutput)")
        #expect(await ours.wait() == .exited(0), "python said: \(ours.errorOutput)")
        await pair.stop()

        /// Each time's last TPV line, then the last SKY line.
        func summary(_ lines: [String]) -> [String] {
            var byTime: [String: String] = [:]
            for line in lines where line.hasPrefix("TPV ") { byTime[line.split(separator: " ")[1].description] = line }
            return byTime.keys.sorted().compactMap { byTime[$0] } + [lines.last { $0.hasPrefix("SKY ") } ?? "no SKY"]
        }
        let gpsd = summary(gpsdLines)
        #expect(gpsd.count == 21 && !gpsd.contains { $0.contains("nan") }, "gpsd's: \(gpsd.joined(separator: "\n"))")
        let differing = zip(summary(ourLines), gpsd).filter { $0 != $1 }.map { "\($0) / \($1)" }
        #expect(summary(ourLines).count == gpsd.count, "ours: \(summary(ourLines).joined(separator: "\n"))")
        #expect(differing.isEmpty, "ours / gpsd's:\n\(differing.joined(separator: "\n"))")
    }
}
