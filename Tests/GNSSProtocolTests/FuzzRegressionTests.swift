import Foundation
import GNSSProtocol
import Testing

/// Every input the fuzzers ever crashed on, kept under Tests/Fixtures/Fuzz/TARGET/, decodes without a crash, and
/// the same whether fed whole or in two pieces.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Fuzz")

    static func inputs(_ target: String) throws -> [(String, [UInt8])] {
        let folder = directory.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
            ($0, Array(try Data(contentsOf: folder.appendingPathComponent($0))))
        }
    }

    @Test func nmeaCrashesStayFixed() throws {
        let inputs = try Self.inputs("nmea")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            let whole = NMEADecoder.decode(bytes).events
            var decoder = NMEADecoder()
            var parts: [NMEAEvent] = []
            decoder.feed(bytes[..<(bytes.count / 2)]) { parts.append($0) }
            decoder.feed(bytes[(bytes.count / 2)...]) { parts.append($0) }
            decoder.finish { parts.append($0) }
            #expect(whole == parts, "\(name)")
        }
    }

    /// The first crash: a fraction with more than 18 digits after leading zeros indexed past the powers of ten.
    @Test func aFractionWithManyLeadingZerosParses() throws {
        let body = "GPGGA,120000.00,4807.0000000000000000000000000012,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
        let line = NMEAChecksum.sentence(body)
        let fixes = NMEADecoder.decode(Array(line.utf8)).events.compactMap { event -> Fix? in
            if case .fix(let fix) = event { fix } else { nil }
        }
        let latitude = try #require(fixes.first?.latitude)
        #expect(abs(latitude - (48 + 7.0 / 60)) < 1e-9)
    }
}
