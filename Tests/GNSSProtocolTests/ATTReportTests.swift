import Testing

@testable import GNSSProtocol

/// HDT sentences become gpsd's ATT reports, as gpsd 3.22 writes them.
@Suite struct ATTReportTests {
    /// gpsdecode's lines for three HDT sentences: a heading, none, and one beyond 360 degrees (neither of the last two
    /// gives a report).
    @Test func eachHDTWithAHeadingIsWrittenAsGpsdecodeWritesIt() {
        let stream = ["GPHDT,274.07,T", "GPHDT,,T", "GPHDT,361.5,T"].map { NMEAFramingTests.line($0) + "\r\n" }.joined()
        var decoder = NMEADecoder(device: "stdin")
        var lines = GPSDReportLines(capacity: 1_024)
        Array(stream.utf8).withUnsafeBytes { decoder.feed($0, writingTo: &lines) }
        decoder.finish(writingTo: &lines)
        #expect(
            String(decoding: lines.bytes, as: UTF8.self) == #"{"class":"ATT","device":"stdin","heading":274.070}"#
                + "\n")
        let relayed = Array((NMEAFramingTests.line("GPHDT,274.07,T") + "\r\n").utf8)
        #expect(Attitude(hdtSentence: relayed, device: "x")?.heading == 274.07)
        #expect(Attitude(hdtSentence: Array((NMEAFramingTests.line("GPHDT,,T") + "\r\n").utf8), device: "x") == nil)
    }
}
