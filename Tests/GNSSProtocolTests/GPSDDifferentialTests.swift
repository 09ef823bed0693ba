import Foundation
import GNSSProtocol
import Testing

/// Decodes real logs, the project's fixtures and generated streams with both our decoder and gpsd's `gpsdecode`,
/// and requires that we reproduce at least 99% of gpsd's timed epochs in every input.
@Suite(.timeLimit(.minutes(3))) struct GPSDDifferentialTests {
    /// Logs where gpsdecode's output is not one state per cycle, with the share we are held to and why.
    ///
    /// bundg_zeus_9 is a chartplotter that mixes sources: its VTG disagrees with its RMC, and gpsdecode prints that
    /// log's TPVs only after heading sentences that follow the VTG, so for some cycles gpsd's only states carry
    /// the VTG's or position-derived speed while we report at the learned cycle ender (RMC).
    static let documentedExceptions: [String: Double] = ["bundg_zeus_9.log": 0.90]

    @Test func realLogsAgreeWithGpsd() throws {
        guard let tool = GPSDReference.gpsdecode() else { return }
        guard let dir = GPSDReference.sampleDirectory else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("../shared/nmea-samples is absent: CI runs with ../shared beside the clone")
            } else {
                print("skipping: ../shared/nmea-samples is absent")
            }
            return
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasSuffix(".log")
        }
        #expect(!names.isEmpty)
        for name in names.sorted() {
            let bytes = try [UInt8](Data(contentsOf: dir.appendingPathComponent(name)))
            let agreement = try GPSDReference.compare(bytes, name: name, tool: tool)
            print(agreement)
            let required = Self.documentedExceptions[name] ?? 0.99
            #expect(
                agreement.ratio >= required,
                "\(agreement)\n\(agreement.mismatches.prefix(5).joined(separator: "\n"))")
        }
    }

    @Test func fixturesAgreeWithGpsd() throws {
        guard let tool = GPSDReference.gpsdecode() else { return }
        let files = GPSDReference.fixtureFiles
        #expect(files.count >= 2)
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            let agreement = try GPSDReference.compare(bytes, name: file.lastPathComponent, tool: tool)
            print(agreement)
            #expect(agreement.gpsdEpochs >= 15)
            #expect(
                agreement.ratio >= 0.99,
                "\(agreement)\n\(agreement.mismatches.prefix(5).joined(separator: "\n"))")
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func randomStreamsAgreeWithGpsd(seed: UInt64) throws {
        guard let tool = GPSDReference.gpsdecode() else { return }
        var generator = NMEAStreamGenerator(seed: seed)
        let stream = generator.stream(epochs: 300)
        let agreement = try GPSDReference.compare(stream, name: "random seed \(seed)", tool: tool)
        print(agreement, generator.summary)
        #expect(agreement.gpsdEpochs >= 250)
        #expect(
            agreement.ratio >= 0.99,
            "\(agreement)\n\(agreement.mismatches.prefix(5).joined(separator: "\n"))")
    }
}
