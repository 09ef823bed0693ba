import Testing

@testable import GNSSProtocol

/// HDT and True North `$PTNTHTM` sentences become gpsd's ATT reports, as gpsd 3.22 writes them.
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
        #expect(Attitude(sentence: relayed, device: "x")?.heading == 274.07)
        #expect(Attitude(sentence: Array((NMEAFramingTests.line("GPHDT,,T") + "\r\n").utf8), device: "x") == nil)
    }

    /// Two sentences of gpsd's `tnt-revolution.log` and gpsd's ATT for the first (`tnt-revolution.log.chk`), then
    /// one without a pitch (no `pitch` and no `pitch_st`) and one a field short (nothing, as gpsd 3.22's field count
    /// rejects it).
    @Test func eachPTNTHTMIsWrittenAsGpsdWritesIt() {
        let stream = [
            "$PTNTHTM,14223,N,169,N,-43,N,13641,2454*15",
            NMEAFramingTests.line("PTNTHTM,14091,N,,N,-43,N,13599,2454"),
            NMEAFramingTests.line("PTNTHTM,14091,N,171,N,-43,N,13599"),
        ].map { $0 + "\r\n" }.joined()
        var decoder = NMEADecoder(device: "stdin")
        var lines = GPSDReportLines(capacity: 1_024)
        Array(stream.utf8).withUnsafeBytes { decoder.feed($0, writingTo: &lines) }
        decoder.finish(writingTo: &lines)
        #expect(
            String(decoding: lines.bytes, as: UTF8.self).split(separator: "\n") == [
                #"{"class":"ATT","device":"stdin","heading":14223.000,"mag_st":"N","pitch":169.00,"pitch_st":"N","#
                    + #""roll":-43.00,"roll_st":"N","dip":13641.000,"mag_x":2454.000}"#,
                #"{"class":"ATT","device":"stdin","heading":14091.000,"mag_st":"N","roll":-43.00,"roll_st":"N","#
                    + #""dip":13599.000,"mag_x":2454.000}"#,
            ])
        let relayed = Attitude(sentence: Array("$PTNTHTM,14223,N,169,N,-43,N,13641,2454*15\r\n".utf8), device: "x")
        #expect(relayed?.pitch == 169 && relayed?.rollStatus == "N" && relayed?.horizontalField == 2454)
    }
}
