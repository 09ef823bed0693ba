import Foundation
import GNSSProtocol
import Testing

/// `singletond decode` as scripts run it: NMEA from a file or standard input, gpsd-style JSON lines on standard
/// output, one summary line on standard error.
@Suite(.timeLimit(.minutes(3))) struct DecodeEndToEndTests {
    enum Input: String, CaseIterable, CustomTestStringConvertible {
        case file, standardInput
        var testDescription: String { rawValue }
    }

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/NMEA/multignss-midnight.nmea").path

    /// What the library's decoder makes of ``fixture``: the reference for what the binary must print.
    static func decodedFixture() throws -> (fixes: [Fix], skyCount: Int, statistics: NMEAStatistics) {
        let (events, statistics) = NMEADecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: fixture))))
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
                    + "truncated \(statistics.truncated), noise bytes \(statistics.noiseBytes), "
                    + "fixes \(fixes.count), sky \(skyCount)"
            ])
    }

    @Test func anUnreadableFileIsNamedAndExits1() async throws {
        let run = try await SingletondProcess.run(["decode", "/nonexistent/track.nmea"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == ["singletond decode: cannot open '/nonexistent/track.nmea': No such file or directory"])
    }
}
