import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// `singletond decode` as scripts run it: NMEA from a file or standard input, gpsd-style JSON lines on standard
/// output, one summary line on standard error.
@Suite(.hangBound) struct DecodeEndToEndTests {
    enum Input: String, CaseIterable, CustomTestStringConvertible {
        case file, standardInput
        var testDescription: String { rawValue }
    }

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/NMEA/multignss-midnight.nmea").path

    /// What the library's decoder makes of ``fixture``: the reference for what the binary must print.
    static func decodedFixture() throws -> (fixes: [Fix], skyCount: Int, statistics: NMEAStatistics) {
        let (events, statistics) = NMEADecoder.decode(
            Array(try Data(contentsOf: URL(fileURLWithPath: fixture))), weekRollover: .asSent)
        let fixes = events.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
        return (fixes, events.count { if case .sky = $0 { true } else { false } }, statistics)
    }

    @Test(arguments: Input.allCases) func writesWhatTheDecoderMakesAndASummary(input: Input) async throws {
        let run =
            switch input {
            case .file: try await SingletondProcess.run(["decode", Self.fixture])
            case .standardInput: try await SingletondProcess.run(["decode", "-"], stdin: Self.fixture)
            }
        #expect(run.status == 0, "\(run.stderr)")

        let (fixes, skyCount, statistics) = try Self.decodedFixture()
        let objects = run.stdout.compactMap { try? JSONValue(parsing: $0) }
        #expect(objects.count == run.stdout.count, "every output line is a JSON object")
        let tpvs = objects.filter { $0["class"]?.stringValue == "TPV" }
        #expect(tpvs.count == fixes.count)
        #expect(objects.count { $0["class"]?.stringValue == "SKY" } == skyCount)
        #expect(fixes.count >= 15)
        // Each line carries its fix in gpsd's fields and units.
        for (tpv, fix) in zip(tpvs, fixes) {
            #expect(tpv["mode"]?.doubleValue == Double(fix.mode.rawValue))
            #expect(tpv["time"]?.stringValue.flatMap(GNSSTime.init(iso8601:)) == fix.time)
            if let latitude = fix.latitude, let longitude = fix.longitude {
                #expect(abs((tpv["lat"]?.doubleValue ?? .nan) - latitude) < 1e-9)
                #expect(abs((tpv["lon"]?.doubleValue ?? .nan) - longitude) < 1e-9)
            }
        }

        let name = input == .file ? Self.fixture : "stdin"
        #expect(
            run.stderr == [
                "singletond decode: \(name): sentences \(statistics.sentences), decoded \(statistics.decoded), "
                    + "bad checksum \(statistics.badChecksum), too long \(statistics.tooLong), "
                    + "unknown \(statistics.unsupported), malformed \(statistics.malformed), "
                    + "truncated \(statistics.truncated), noise bytes \(statistics.noiseBytes), binary packets 0, "
                    + "fixes \(fixes.count), sky \(skyCount), week rollover: as-sent (dates as the receiver sent them)"
            ])
    }

    /// Three cycles of a receiver dated 1999-03-15, as one whose GPS week rolled over reports 2018-10-29.
    static let dated1999 = (5...7).map { second in
        NMEAChecksum.sentence("GPRMC,03040\(second),A,3352.1280,S,15112.5580,E,0.0,300.0,150399,12.5,E")
            + NMEAChecksum.sentence("GPGGA,03040\(second),3352.1280,S,15112.5580,E,1,08,0.9,58.0,M,22.0,M,,")
    }.joined()

    /// A recording keeps its dates unless gpsd's rule is asked for; then they are gpsdecode's (2018-10-29 for
    /// these sentences, checked with gpsd 3.22's gpsdecode), and the summary says which rule ran and how often it
    /// moved a time.
    @Test func theSummaryNamesTheWeekRolloverRuleItApplied() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("dated-1999.nmea")
        try Self.dated1999.write(toFile: path, atomically: false, encoding: .utf8)
        let summary =
            "singletond decode: \(path): sentences 6, decoded 6, bad checksum 0, too long 0, unknown 0, malformed 0, "
            + "truncated 0, noise bytes 0, binary packets 0, fixes 3, sky 0, "
        let times = (5...7).map { "T03:04:0\($0).000Z" }

        let asSent = try await SingletondProcess.run(["decode", path])
        #expect(asSent.status == 0)
        #expect(asSent.stderr == [summary + "week rollover: as-sent (dates as the receiver sent them)"])
        #expect(Self.times(asSent.stdout) == times.map { "1999-03-15" + $0 })

        let gpsd = try await SingletondProcess.run(["decode", "--week-rollover", "gpsd", path])
        #expect(gpsd.status == 0)
        #expect(gpsd.stderr == [summary + "week rollover: gpsd (times before 2017 moved 1024 weeks forward: 3)"])
        #expect(Self.times(gpsd.stdout) == times.map { "2018-10-29" + $0 })
    }

    /// The `time` of every TPV line.
    static func times(_ lines: [String]) -> [String] {
        lines.compactMap { try? JSONValue(parsing: $0) }.filter { $0["class"]?.stringValue == "TPV" }
            .compactMap { $0["time"]?.stringValue }
    }

    @Test func anUnreadableFileIsNamedAndExits1() async throws {
        let run = try await SingletondProcess.run(["decode", "/nonexistent/track.nmea"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == ["singletond decode: cannot open '/nonexistent/track.nmea': No such file or directory"])
    }
}
