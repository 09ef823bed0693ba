import Foundation
import GNSSProtocol
import TestSupport
import Testing

extension SingletondEndToEndTests {
    /// `singletond --nmea -`: the receiver's NMEA arrives on standard input (a pipe from another program, here a
    /// file), and every fix a live source's decoder makes of it is written, in order.
    @Test func nmeaFromStandardInputBecomesTPVLines() async throws {
        let fixture = DecodeEndToEndTests.fixture
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: fixture)))
        let fixes = NMEADecoder.decode(bytes, liveDevice: "stdin").compactMap {
            if case .fix(let fix) = $0 { fix } else { nil }
        }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let daemon = try SingletondProcess(["--nmea", "-", "--control", directory.file("c.sock")], stdin: fixture)
        defer { daemon.kill() }

        var lines: [JSONValue] = []
        while lines.count < fixes.count, let line = await daemon.stdout.nextLine() {
            lines.append(try JSONValue(parsing: line))
        }
        #expect(lines.count == fixes.count, "\(daemon.stderr.history)")
        #expect(lines.map { $0["time"]?.stringValue.flatMap(GNSSTime.init(iso8601:)) } == fixes.map(\.time))
        for (line, fix) in zip(lines, fixes) {
            #expect(abs((line["lat"]?.doubleValue ?? .nan) - (fix.latitude ?? .nan)) < 1e-9)
        }
        // The end of standard input ends the source, not the daemon: it keeps serving until told to stop.
        let ended = await daemon.stderr.line(containing: "location: idle (stdin ended)")
        #expect(ended != nil, "\(daemon.stderr.history)")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }
}
