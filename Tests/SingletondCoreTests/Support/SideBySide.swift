import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// A real gpsd and `singletond --listen`, side by side, each fed the same log in one write once their clients watch.
///
/// gpsd (`gpsd -N -n`) reads the log from a loopback connection the test owns (its device is
/// `tcp://127.0.0.1:FEED`); the daemon reads it from a FIFO. Neither paces the log: every report both send follows
/// from the log's bytes alone, so a client of one and a client of the other see the same reports.
final class SideBySide: Sendable {
    /// The shared fixture: 20 epochs of a multi-GNSS receiver with RMC, VTG, GGA, GSA, GSV, GLL and ZDA, so that
    /// DOPs, and the error estimates made of them, exist.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/NMEA/multignss-midnight.nmea").path
    /// The time of the fixture's last epoch, as a TPV writes it.
    static let lastTime = "2026-01-01T00:00:09.000Z"
    /// A sentence whose checksum is wrong, which gpsd neither decodes nor relays.
    static let badChecksum = "$GPTXT,01,01,02,checksum is wrong*00"

    /// The log's last sentence, with its checksum: a relay has sent every sentence once it sent this one.
    static let endMarker: String = {
        let body = "GPTXT,01,01,02,end of log"
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$\(body)*" + String(format: "%02X", checksum)
    }()

    /// The log both servers read: the fixture (CRLF line endings), with its second epoch's lines ending in LF
    /// alone, ``badChecksum`` between the first two epochs and ``endMarker`` last, so that a relay shows whether it
    /// keeps each sentence's own line ending and drops what failed its checksum; after each GGA a GST of its time
    /// (noise statistics, every field but the orientation sent, then every field in the last epochs). No HDT: gpsd
    /// 3.22 writes a broken ATT (`,,` and GST's values as attitude members) for an HDT in a stream that sends GST.
    static let log: [UInt8] = {
        let text = (try? String(contentsOfFile: fixture, encoding: .utf8)) ?? ""
        var bytes: [UInt8] = []
        var epoch = 0
        for line in text.split(separator: "\r\n") {
            if line.hasPrefix("$GNRMC") {
                epoch += 1
                if epoch == 2 { bytes += Array((badChecksum + "\r\n").utf8) }
            }
            let end = epoch == 2 ? "\n" : "\r\n"
            bytes += Array(line.utf8) + Array(end.utf8)
            if line.hasPrefix("$GNGGA,"), let time = line.split(separator: ",").dropFirst().first {
                let orientation = epoch > 15 ? "\(epoch * 7).5" : ""
                let body = "GNGST,\(time),\(epoch).\(epoch % 10),2.25,1.5,\(orientation),1.2,0.9,2.75"
                bytes += Array(NMEAChecksum.sentence(body, lineEnd: false).utf8) + Array(end.utf8)
            }
        }
        return bytes + Array((endMarker + "\r\n").utf8)
    }()

    /// The log's sentences as a relay must send them, each one that passed its checksum with its own line ending,
    /// as a ``TestSupport/LineReader`` reads them: the LF dropped, a CR kept.
    static var relayedSentences: [String] {
        log.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
            .filter { $0.hasPrefix("$") && !$0.hasPrefix(badChecksum) }
    }

    /// The test's directory, for the FIFO, sockets and client files.
    let directory: TemporaryDirectory
    /// The real gpsd, its debug output (client requests) kept in a file.
    let gpsd: ChildProcess
    /// The port gpsd serves on 127.0.0.1.
    let gpsdPort: UInt16
    /// The daemon under test.
    let daemon: SingletondProcess
    /// The port the daemon's listener serves on 127.0.0.1.
    let daemonPort: UInt16
    /// The FIFO the daemon reads its source from.
    let source: HeldFIFO
    /// The test's end of gpsd's device connection.
    private let feed: Int32

    private init(
        directory: TemporaryDirectory, gpsd: ChildProcess, gpsdPort: UInt16, daemon: SingletondProcess,
        daemonPort: UInt16, source: HeldFIFO, feed: Int32
    ) {
        self.directory = directory
        self.gpsd = gpsd
        self.gpsdPort = gpsdPort
        self.daemon = daemon
        self.daemonPort = daemonPort
        self.source = source
        self.feed = feed
    }

    /// Starts gpsd and the daemon; returns once gpsd has connected to its device (it listens by then) and the
    /// daemon is ready.
    static func start() async throws -> SideBySide {
        let gpsdPath = try #require(Machine.path(of: "gpsd"), "gpsd is missing: apt-get install gpsd")
        try #require(!log.isEmpty, "the fixture \(fixture) is missing")
        let directory = TemporaryDirectory()
        let peer = try LoopbackPeer()
        defer { peer.close() }
        let gpsdPort = try freePort()
        // -D 2 logs each client's requests ("<= client(N): ?WATCH=..."), which ``waitForWatchers(_:)`` reads.
        let gpsd = try ChildProcess(
            gpsdPath, ["-N", "-n", "-D", "2", "-S", String(gpsdPort), "tcp://127.0.0.1:\(peer.port)"], stderr: .kept,
            ownTemporaryDirectory: true)
        // gpsd opens its listening sockets before its devices: once it has connected, it listens.
        let feed = try await blocking { Result { try peer.accept() } }.get()
        let source = try HeldFIFO(directory.file("nmea"))
        let daemonPort = try freePort()
        let daemon = try SingletondProcess([
            "--nmea", source.path, "--listen", "127.0.0.1:\(daemonPort)", "--control", directory.file("c.sock"),
            "--output", "/dev/null", "--log-level", "debug",
        ])
        let started = SideBySide(
            directory: directory, gpsd: gpsd, gpsdPort: gpsdPort, daemon: daemon, daemonPort: daemonPort,
            source: source, feed: feed)
        #expect(await daemon.stderr.line(containing: "ready:", timeout: 60) != nil, "\(daemon.stderr.history)")
        return started
    }

    /// `127.0.0.1:PORT` of gpsd (`ofGpsd`) or of the daemon, as gpsd's clients take a server.
    func server(ofGpsd: Bool) -> String { "127.0.0.1:\(ofGpsd ? gpsdPort : daemonPort)" }

    /// Waits until `count` clients of each server have sent their WATCH: gpsd logs each request, the daemon each
    /// watcher. Fails the test when one does not come while its server runs (bounded by ``Polling``).
    func waitForWatchers(_ count: Int = 1) async throws {
        let gpsd = gpsd
        let watching = try await Polling.firstAnswer(while: { gpsd.isRunning }) {
            gpsd.errorOutput.components(separatedBy: "): ?WATCH=").count - 1 >= count ? true : nil
        }
        #expect(watching == true, "gpsd saw fewer than \(count) WATCH: \(gpsd.errorOutput.suffix(2_000))")
        for _ in 0..<count {
            let line = await daemon.stderr.line(containing: " watches", timeout: 60)
            #expect(line != nil, "the daemon saw fewer than \(count) watchers: \(daemon.stderr.history)")
        }
    }

    /// Writes the whole log to gpsd's device connection and to the daemon's FIFO.
    func feedLog() throws {
        try writeAll(feed, Self.log)
        try writeAll(source.fd, Self.log)
    }

    /// Stops both servers and removes the directory.
    func stop() async {
        _ = await gpsd.terminateAndWait()
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        _ = close(feed)
        source.close()
        directory.remove()
    }

    /// The path of one of gpsd's clients; its test requires it, so this fails only under CI=true.
    static func tool(_ name: String, package: String = "gpsd-clients") throws -> String {
        try #require(Machine.path(of: name), "\(name) is missing: apt-get install \(package)")
    }

    /// A line as a JSON object, gpsd's `\r` dropped; `nil` for a line that is not one.
    static func object(_ line: String) -> JSONValue? {
        try? JSONValue(parsing: line.hasSuffix("\r") ? String(line.dropLast()) : line)
    }
}
