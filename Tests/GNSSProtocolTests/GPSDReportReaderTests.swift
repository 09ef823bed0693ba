import Foundation
import TestSupport
import Testing

@testable import GNSSProtocol

/// The one-pass reader of TPV and SKY lines against the general JSON reader: on every line, `GPSDMessage(line:)`
/// (one pass where it can) must give what `GPSDMessage(decodingWithGeneralReader:)` gives, value or error.
@Suite struct GPSDReportReaderTests {
    /// The outcome of decoding `line` one way.
    static func outcome(_ decode: () throws(GPSDDecodingError) -> GPSDMessage) -> Result<GPSDMessage, GPSDDecodingError>
    {
        Result { () throws(GPSDDecodingError) in try decode() }
    }

    /// Checks `line` both ways; returns whether the one-pass reader decoded it itself.
    @discardableResult
    static func agree(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let fast = outcome { () throws(GPSDDecodingError) in try GPSDMessage(line: line) }
        let general = outcome { () throws(GPSDDecodingError) in try GPSDMessage(decodingWithGeneralReader: line) }
        #expect(
            fast == general, "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
        return line.withUnsafeBufferPointer { GPSDReportReader.message($0) } != nil
    }

    /// The NMEA fixtures in the repository.
    static var fixtureInputs: [String] {
        get throws {
            let fixtures = Machine.packageRoot.appendingPathComponent("Tests/Fixtures/NMEA").path
            return try FileManager.default.contentsOfDirectory(atPath: fixtures).sorted().map { "\(fixtures)/\($0)" }
        }
    }

    /// The shared receiver logs (`../shared/nmea-samples`), or none where they are not beside the package.
    static var sharedInputs: [String] {
        let shared = (try? FileManager.default.contentsOfDirectory(atPath: Machine.sharedSamples.path)) ?? []
        return shared.sorted().filter { $0.hasSuffix(".log") }.map(Machine.sharedSample)
    }

    /// gpsd 3.22's own captured TPV and SKY lines.
    static let capturedLines: [[UInt8]] = [
        CapturedLines.tpvFirst, CapturedLines.tpvNoFix, CapturedLines.tpvFull, CapturedLines.tpvStatus,
        CapturedLines.sky, CapturedLines.skyGalileo,
    ].map { Array($0.utf8) }

    /// TPV and SKY lines as gpsd writes them: the writer's output for every fix and view the logs at `inputs`
    /// decode to.
    static func writtenLines(decoding inputs: [String]) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for path in inputs {
            var decoder = NMEADecoder(device: path)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            decoder.feed(bytes) { event in
                var line: [UInt8] = []
                switch event {
                case .fix(let fix): GPSDJSONWriter.appendTPV(fix, newline: false, to: &line)
                case .sky(let view): GPSDJSONWriter.appendSKY(view, newline: false, to: &line)
                }
                lines.append(line)
            }
        }
        return lines
    }

    /// Checks every line both ways and that the one-pass reader read each itself.
    static func expectReadInOnePass(_ lines: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) {
        var readInOnePass = 0
        for line in lines where agree(line, sourceLocation: sourceLocation) { readInOnePass += 1 }
        #expect(
            readInOnePass == lines.count, "the one-pass reader gave up on lines gpsd writes",
            sourceLocation: sourceLocation)
    }

    @Test func everyLineGpsdWritesForTheFixturesIsReadInOnePassAndAgrees() throws {
        let lines = try Self.capturedLines + Self.writtenLines(decoding: Self.fixtureInputs)
        // The repository's fixtures decode to 65 fixes and views; with gpsd's 6 captured lines, 71.
        #expect(lines.count >= 71)
        Self.expectReadInOnePass(lines)
    }

    @Test(.sharedSamples) func everyLineGpsdWritesForTheSharedLogsIsReadInOnePassAndAgrees() throws {
        let lines = try Self.writtenLines(decoding: Self.sharedInputs)
        #expect(lines.count > 1000, "the shared receiver logs decode to thousands of fixes and views")
        Self.expectReadInOnePass(lines)
    }

    @Test func mutatedLinesAgree() throws {
        var random = SplitMix64(seed: 0x6A50_5244)
        let alphabet = Array(#"{}[]",:0123456789.eE-+ tfnul\\/TPVSKYa"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xFF]
        var checked = 0
        // Every line the fixtures give, every 5th line of the shared logs where present (they give thousands), and
        // the fuzz corpus, six mutations each.
        let shared = try Self.writtenLines(decoding: Self.sharedInputs)
        let lines =
            try Self.capturedLines + Self.writtenLines(decoding: Self.fixtureInputs)
            + stride(from: 0, to: shared.count, by: 5).map { shared[$0] } + Self.corpus()
        for line in lines {
            for _ in 0..<6 {
                var mutated = line
                let position = Int(random.next() % UInt64(max(mutated.count, 1)))
                switch random.next() % 4 {
                case 0 where !mutated.isEmpty:
                    mutated[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: mutated = Array(mutated.prefix(position))
                case 2 where !mutated.isEmpty: mutated.remove(at: position)
                default: mutated.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                }
                Self.agree(mutated)
                checked += 1
            }
        }
        // Without the shared logs: (71 written and captured lines + the corpus's lines) x 6.
        #expect(checked >= 6 * 71)
    }

    /// The gpsd fuzz target's seed corpus, one line each.
    static func corpus() throws -> [[UInt8]] {
        let directory = Machine.packageRoot.appendingPathComponent("Fuzz/gpsd/corpus").path
        var lines: [[UInt8]] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)")))
            lines += bytes.split(separator: 0x0A).map(Array.init)
        }
        return lines
    }

    /// Lines at the edges of what the one-pass reader takes, each of which must agree with the general reader.
    @Test(arguments: [
        #"{"class":"TPV","mode":3,"lat":1.234567890123456}"#,  // 16 significant digits: the general reader
        #"{"class":"TPV","mode":3,"lat":12.3456789012345}"#,  // 15: one pass, exact
        #"{"class":"TPV","mode":3,"lat":-0.0,"lon":1e1,"speed":2.5E-3,"climb":1e-22,"track":1e22}"#,
        #"{"class":"TPV","mode":3,"speed":1e23}"#,
        #"{"class":"TPV","mode":3,"speed":0.000000000000000000000000001}"#,
        #"{"class":"TPV","mode":3.0,"status":2}"#,
        #"{"class":"TPV","mode":3.5}"#,
        #"{"class":"TPV","mode":7}"#,
        #"{"class":"TPV","lat":1}"#,
        #"{"class":"TPV","mode":3,"lat":91}"#,
        #"{"class":"TPV","mode":3,"lat":"47"}"#,
        #"{"class":"TPV","mode":3,"lat":null}"#,
        #"{"class":"TPV","mode":3,"mode":2}"#,
        #"{"class":"TPV","mode":3,"class":"SKY"}"#,
        #"{"class":"TPV","mode":3,"x":1,"y":2,"x":3}"#,
        #"{"class":"SKY","satellites":[{"PRN":1,"q":1,"q":2}]}"#,
        #"{"mode":3,"class":"TPV"}"#,
        #"{"class":"TPV","mode":3,"device":"\/dev\/pts\/1"}"#,
        #"{"class":"TPV","mode":3,"device":"caf\u00e9"}"#,
        #"{"class":"TPV","mode":3,"time":"2026-03-26T03:15:16.999Z","alt":5}"#,
        #"{"class":"TPV","mode":3,"time":"2026-03-26T03:15:16Z","alt":5,"altMSL":6}"#,
        #"{"class":"TPV","mode":3,"time":"yesterday"}"#,
        #"{"class":"TPV","mode":3,"x":{"a":[1,{"b":[true,false,null]}]},"y":[]}"#,
        #"{"class":"TPV","mode":3,"x":[[[[[[[[[[1]]]]]]]]]]}"#,
        #"  {"class" : "TPV" , "mode" : 3 }  "#,
        #"{"class":"TPV","mode":3}x"#,
        #"{"class":"TPV","mode":3,}"#,
        #"{"class":"TPV","mode":03}"#,
        #"{"class":"TPV","mode":-}"#,
        #"{"class":"SKY","satellites":[]}"#,
        #"{"class":"SKY","nSat":2,"satellites":[{"PRN":1,"used":true},{"PRN":2,"el":-1.5,"ss":0}]}"#,
        #"{"class":"SKY","satellites":[{"el":1}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":1,"PRN":2}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":1,"used":1}]}"#,
        #"{"class":"SKY","satellites":[1]}"#,
        #"{"class":"SKY","satellites":{}}"#,
        #"{"class":"SKY","nSat":"many","hdop":0.9}"#,
        #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
        // Names read by one 8-byte load, and those that stop it: escapes, control bytes, DEL, non-ASCII, spacing.
        #"{"class":"SKY","satellites":[{"PRN":1,"":2,"a\"b":3,"el\u0000":4,"az\#u{7F}":5,"ss\#u{E9}":6}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":1,"el\#u{1F}":2,"used\#u{0}":true}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":1,"el" :2,"az": 3,"used":true }]}"#,
        #"{"class":"SKY","satellites":[{"PRN":1,"sigid":0,"health":1,"sigid":2}]}"#,
        #"{"class":"TPV","mode":3,"geoidSep":1,"magtrack":2,"abcdefg":3,"abcdefgh":4,"abcdefghi":5}"#,
        #"{"class":"TPV","mode":3,"lat":1,"la":2,"lat\#u{1F}":3}"#,
        #"{"class":"SKY","satellites":[{"PRN":1}],"x":1}"#,
        // Whole numbers read straight into an Int, and those that are not.
        #"{"class":"SKY","satellites":[{"PRN":123456789012345,"gnssid":-7,"svid":1.0}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":1234567890123456}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":-0,"gnssid":0,"svid":1e2}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":1E1,"gnssid":2.5}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":1-}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":-}]}"#,
        #"{"class":"TPV","mode":3"#,
        #"{"class":"TPV","mode":3 } "#,
        #"{"class":"TPV","mode":3,"lat":1."#,
        #"{"class":"TPV","mode":3,"lat":1e}"#,
        #"{"class":"TPV","mode":3,"lat":1e+}"#,
        // Booleans read by one 4-byte load, at the end of the line and not.
        #"{"class":"SKY","satellites":[{"PRN":1,"used":false},{"PRN":2,"used":tru}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":1,"used":fals}]}"#,
        #"{"class":"SKY","satellites":[{"PRN":1,"used":truex}]}"#,
        #"{"class":"TPV","mode":3,"x":true}"#,
        #"{"class":"TPV","mode":3,"x":false}"#,
    ])
    func edgeLinesAgree(_ line: String) {
        Self.agree(Array(line.utf8))
    }

    @Test func theEdgesTheOnePassReaderTakesAreReadInOnePass() {
        #expect(Self.agree(Array(#"{"class":"TPV","mode":3,"lat":12.3456789012345}"#.utf8)))
        #expect(Self.agree(Array(#"{"class":"TPV","mode":3,"x":[1,[true,false,"a"],{}],"y":[]}"#.utf8)))
        #expect(!Self.agree(Array(#"{"class":"TPV","mode":3,"x":{"a":1}}"#.utf8)))
        #expect(!Self.agree(Array(#"{"class":"TPV","mode":3,"x":1,"x":2}"#.utf8)))
        #expect(!Self.agree(Array(#"{"class":"TPV","mode":3,"lat":1.234567890123456}"#.utf8)))
        #expect(!Self.agree(Array(#"{"class":"TPV","mode":3,"device":"\/dev"}"#.utf8)))
        #expect(Self.agree(Array(#"{"class":"SKY","satellites":[{"PRN":1,"sigid":0,"health":1}]}"#.utf8)))
        #expect(Self.agree(Array(#"{"class":"SKY","satellites":[{"PRN":123456789012345,"used":false}]} "#.utf8)))
        #expect(!Self.agree(Array(#"{"class":"SKY","satellites":[{"PRN":1,"sigid":0,"sigid":1}]}"#.utf8)))
    }
}
