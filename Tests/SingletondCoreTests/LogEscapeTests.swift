import Foundation
import SingletondCore
import TestSupport
import Testing

/// Control characters in what a log line quotes reach the log as text, from any source: `ESC ] 0 ; … BEL` would
/// retitle the terminal that shows the log, `ESC [ 2 J` clear it, a NUL cut the line for some readers. Before, only
/// line ends were replaced; a gpsd ERROR (or whoever binds 127.0.0.1:2947 while gpsd is down) reached the log raw.
@Suite(.hangBound) struct LogEscapeTests {
    /// The message of the ERROR below as gpsd's JSON escapes it, and as the log must show it.
    static let hostile = "retitled \u{1B}]0;pwned\u{07} cleared \u{1B}[2J cut \u{0} C1 \u{9B}2J del \u{7F} tab \u{09}"
    static let escaped = "retitled \\x1B]0;pwned\\x07 cleared \\x1B[2J cut \\x00 C1 \\u009B2J del \\x7F tab \\x09"

    /// The bytes of a log line: nothing below 0x20 but its end, no DEL, no C1 control.
    static func isInert(_ line: String) -> Bool {
        !line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    @Test func theLogWriterEscapesControlCharactersAndKeepsOtherText() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try CapturedLog(in: directory)
        log.logger.warning("gpsd says: \(Self.hostile)\r\nnext line, Zürich °")
        let lines = try log.lines()
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        #expect(line.hasSuffix("warning: gpsd says: \(Self.escaped)  next line, Zürich °"), "\(line)")
        #expect(Self.isInert(String(line)), "\(line.unicodeScalars.map { $0.value })")
    }

    /// A gpsd that sends an ERROR full of terminal commands and closes: the daemon's log names the ERROR as the
    /// connection's last problem, escaped.
    @Test func aGpsdErrorReachesTheDaemonsLogEscaped() async throws {
        let json =
            "{\"class\":\"VERSION\",\"release\":\"3.22\",\"rev\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}\n"
            + "{\"class\":\"ERROR\",\"message\":\""
            + "retitled \\u001b]0;pwned\\u0007 cleared \\u001b[2J cut \\u0000 C1 \\u009b2J del \\u007f tab \\t\"}\n"
        let peer = try LoopbackPeer { connection in
            try? writeAll(connection, json)
            LoopbackPeer.finish(connection)
        }
        defer { peer.close() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let daemon = try SingletondProcess(["--gpsd", "127.0.0.1:\(peer.port)", "--control", directory.file("c.sock")])
        defer { daemon.kill() }
        let line = await daemon.stderr.line(containing: "gpsd says:", timeout: 60)
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        let logged = try #require(line, "\(daemon.stderr.history)")
        #expect(logged.contains("gpsd says: \(Self.escaped)"), "\(logged)")
        #expect(Self.isInert(logged), "\(logged.unicodeScalars.map { $0.value })")
    }
}
