import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// The clients people run against gpsd, run against the daemon's gpsd listener on the demo track (a log built into
/// the binary, replayed in real time): the `gps` Python module of python3-gps, and `cgps` on a tmux screen.
@Suite(.hangBound) struct GPSDListenerClientTests {
    /// Starts the demo daemon with its listener on a free port; returns once it is ready.
    static func startDaemon(in directory: TemporaryDirectory) async throws -> (SingletondProcess, UInt16) {
        let port = try freePort()
        let daemon = try SingletondProcess([
            "--demo", "--listen", "127.0.0.1:\(port)", "--control", directory.file("c.sock"),
        ])
        #expect(await daemon.stderr.line(containing: "ready:", timeout: 60) != nil, "\(daemon.stderr.history)")
        return (daemon, port)
    }

    /// Whether the daemon wrote a TPV at (`lat`, `lon`) to its output: its lines are read until one is, or until
    /// 120 lines (two minutes of the track) are not.
    static func wrote(_ daemon: SingletondProcess, lat: Double, lon: Double, tolerance: Double) async -> Bool {
        for _ in 0..<120 {
            guard let line = await daemon.stdout.nextLine(timeout: 60) else { return false }
            guard let tpv = try? JSONValue(parsing: line), let written = tpv["lat"]?.doubleValue,
                let writtenLon = tpv["lon"]?.doubleValue
            else { continue }
            if abs(written - lat) < tolerance, abs(writtenLon - lon) < tolerance { return true }
        }
        return false
    }

    @Test(.requires([Requirement.pythonGPS])) func thePythonClientReadsAFix() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, port) = try await Self.startDaemon(in: directory)
        defer { daemon.kill() }
        let script = """
            import gps
            session = gps.gps(host="127.0.0.1", port=\(port), mode=gps.WATCH_ENABLE | gps.WATCH_JSON)
            for report in session:
                if report["class"] == "TPV" and report.get("mode", 0) >= 2:
                    print("%.9f %.9f %d" % (report["lat"], report["lon"], report["mode"]), flush=True)
                    break
            """
        let client = try ChildProcess("/usr/bin/python3", ["-c", script], stdout: .pipe, stderr: .kept)
        defer { client.kill() }
        let line = await client.stdout.nextLine(timeout: 60)
        #expect(await client.wait() == .exited(0), "python said: \(client.errorOutput)")
        let fields = (line ?? "").split(separator: " ").compactMap { Double($0) }
        try #require(fields.count == 3, "the client printed \(line ?? "nothing")")
        #expect(fields[2] == 3)
        // The fix is one the daemon wrote: its output holds every fix, the client's among the first few.
        #expect(
            await Self.wrote(daemon, lat: fields[0], lon: fields[1], tolerance: 1e-9),
            "the client read \(fields); the daemon wrote \(daemon.stdout.history)")
    }

    @Test(.requires([Requirement.tmux, Requirement.cgps])) func cgpsShowsTheLatitudeAndLongitude() async throws {
        let tmux = try #require(Machine.path(of: "tmux"), "tmux is missing: apt-get install tmux")
        let cgps = try #require(Machine.path(of: "cgps"), "cgps is missing: apt-get install gpsd-clients")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, port) = try await Self.startDaemon(in: directory)
        defer { daemon.kill() }
        let socket = directory.file("tmux.sock")
        let start = try ChildProcess(
            tmux,
            ["-S", socket, "new-session", "-d", "-s", "cgps", "-x", "100", "-y", "30", "\(cgps) -s 127.0.0.1:\(port)"])
        #expect(await start.wait() == .exited(0))
        // A failed expectation leaves the tmux server to end with its one session: cgps exits when the daemon does.

        // The screen is read until it shows a latitude (cgps draws "Latitude:  52.35814933 N"): up to 60 s, 100 ms
        // apart (pacing: the screen has no event to wait for).
        var screen: [String] = []
        var shown: (Double, Double)?
        for _ in 0..<600 where shown == nil {
            let capture = try ChildProcess(tmux, ["-S", socket, "capture-pane", "-p", "-t", "cgps"], stdout: .pipe)
            screen = await capture.stdout.rest()
            _ = await capture.wait()
            shown = Self.position(onScreen: screen)
            if shown == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let (lat, lon) = try #require(shown, "cgps showed:\n\(screen.joined(separator: "\n"))")
        // cgps shows 8 decimals of a fix the daemon wrote.
        #expect(
            await Self.wrote(daemon, lat: lat, lon: lon, tolerance: 1e-8),
            "cgps showed \(lat) \(lon); the daemon wrote \(daemon.stdout.history)")
        let stop = try ChildProcess(tmux, ["-S", socket, "kill-server"])
        _ = await stop.wait()
    }

    /// The latitude and longitude on cgps's screen, signed by their hemispheres; `nil` before it shows them.
    static func position(onScreen lines: [String]) -> (Double, Double)? {
        func value(after label: String) -> Double? {
            guard let line = lines.first(where: { $0.contains(label) }),
                let range = line.range(of: label)
            else { return nil }
            let words = line[range.upperBound...].split(separator: " ")
            guard words.count >= 2, let number = Double(words[0]) else { return nil }
            return words[1].hasPrefix("S") || words[1].hasPrefix("W") ? -number : number
        }
        guard let lat = value(after: "Latitude:"), let lon = value(after: "Longitude:") else { return nil }
        return (lat, lon)
    }
}
