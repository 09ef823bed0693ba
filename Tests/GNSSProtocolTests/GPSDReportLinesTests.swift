import Foundation
import GNSSProtocol
import Testing

/// The decoder's direct path to JSON lines (`singletond decode`'s) writes, byte for byte, what its public `emit`
/// path gives when each event is written by ``GPSDJSONWriter``.
@Suite struct GPSDReportLinesTests {
    /// The lines of `events`, each written by a fresh writer.
    private func lines(of events: [NMEAEvent]) -> [UInt8] {
        var out: [UInt8] = []
        for event in events {
            switch event {
            case .fix(let fix): GPSDJSONWriter.appendTPV(fix, to: &out)
            case .sky(let view): GPSDJSONWriter.appendSKY(view, to: &out)
            }
        }
        return out
    }

    /// `input` through ``NMEADecoder/feed(_:writingTo:)`` in pieces of `piece` bytes, then the statistics.
    private func directLines(_ input: [UInt8], piece: Int) -> ([UInt8], NMEAStatistics) {
        var decoder = NMEADecoder(device: "stdin")
        var lines = GPSDReportLines(capacity: 0)
        input.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                let end = min(start + piece, bytes.count)
                decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), writingTo: &lines)
                start = end
            }
        }
        decoder.finish(writingTo: &lines)
        return (lines.bytes, decoder.statistics)
    }

    @Test(arguments: GPSDReference.fixtureFiles.map(\.lastPathComponent))
    func aFixtureLogGivesTheSameLines(name: String) throws {
        let input = try [UInt8](
            Data(contentsOf: GPSDReference.packageRoot.appendingPathComponent("Tests/Fixtures/NMEA/\(name)")))
        let (events, statistics) = NMEADecoder.decode(input, device: "stdin")
        #expect(events.count > 10)
        for piece in [1, 7, 65_536] {
            let (direct, directStatistics) = directLines(input, piece: piece)
            #expect(direct == lines(of: events), "pieces of \(piece) bytes")
            #expect(directStatistics == statistics)
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aGeneratedStreamGivesTheSameLines(seed: UInt64) {
        var generator = NMEAStreamGenerator(seed: seed)
        let input = generator.stream(cycles: 300)
        let (events, statistics) = NMEADecoder.decode(input, device: "stdin")
        let (direct, directStatistics) = directLines(input, piece: 100)
        #expect(direct == lines(of: events), "\(generator.summary)")
        #expect(directStatistics == statistics)
    }
}
