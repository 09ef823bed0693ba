import Testing

@testable import GNSSProtocol

/// GST sentences become gpsd's GST reports, one per sentence, as gpsd 3.22 writes them.
@Suite struct GSTReportTests {
    /// A GST before any date, an RMC that dates the stream, and two GSTs (all fields; some left empty).
    static let stream = [
        "GPGST,232712.000,,,,,,,",
        "GPRMC,232713.000,A,2503.6319,N,12136.0099,E,0.01,0.0,121126,,,A",
        "GPGST,232713.000,1.3,105.1,9.1,-40.9,0.3,0.3,0.6",
        "GNGST,232713.50,235111,,,,2.3,3.5,4.0",
    ].map { NMEAFramingTests.line($0) + "\r\n" }.joined()

    /// The lines `gpsdecode` (gpsd 3.22) printed for `stream`: a GST without a date has no time, a value not sent
    /// is left out, and each value has three decimals. The TPV comes at the end of the input.
    static let gpsdecode = [
        #"{"class":"GST","device":"stdin"}"#,
        #"{"class":"GST","device":"stdin","time":"2026-11-12T23:27:13.000Z","rms":1.300,"major":105.100,"#
            + #""minor":9.100,"orient":-40.900,"lat":0.300,"lon":0.300,"alt":0.600}"#,
        #"{"class":"GST","device":"stdin","time":"2026-11-12T23:27:13.500Z","rms":235111.000,"lat":2.300,"#
            + #""lon":3.500,"alt":4.000}"#,
    ]

    @Test func eachGSTIsWrittenAsGpsdecodeWritesIt() {
        var decoder = NMEADecoder(device: "stdin")
        var lines = GPSDReportLines(capacity: 4_096)
        Array(Self.stream.utf8).withUnsafeBytes { decoder.feed($0, writingTo: &lines) }
        decoder.finish(writingTo: &lines)
        let written = String(decoding: lines.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(Array(written.prefix(3)) == Self.gpsdecode)
        #expect(written.count == 4 && written[3].hasPrefix(#"{"class":"TPV""#))
        #expect(decoder.statistics.decoded == 4 && decoder.statistics.unsupported == 0)
    }

    /// The statistics change no estimate of the fix (gpsd 3.22 takes none from GST) and start no cycle.
    @Test func aGSTChangesNeitherTheFixNorTheCycle() {
        let withGST = NMEADecoder.decode(Array(Self.stream.utf8)).events
        let without = Self.stream.split(separator: "\r\n").filter { !$0.contains("GST") }.map { $0 + "\r\n" }.joined()
        #expect(withGST == NMEADecoder.decode(Array(without.utf8)).events)
    }

    /// A relayed GST is dated with the latest fix's date, moved to the next day when its hour is below the fix's,
    /// as the decoder's clock moves its date (gpsd's `merge_hhmmss`): just past midnight, and where a stream goes
    /// back across an hour; a GST in the fix's own hour keeps the date.
    @Test func aRelayedGSTIsDatedAsTheDecodersClockDatesIt() {
        let day: Int64 = 86_400_000
        let fix = GNSSTime(millisecondsSince1970: 20_000 * day + (15 * 3_600 + 25 * 60) * 1_000)
        func relayed(_ time: String) -> Int64? {
            let sentence = Array((NMEAFramingTests.line("GPGST,\(time),1.3,,,,0.3,0.3,0.6") + "\r\n").utf8)
            return PseudorangeNoise(gstSentence: sentence, date: fix, device: "x")?.time?.millisecondsSince1970
        }
        #expect(relayed("151000.00") == 20_000 * day + (15 * 3_600 + 10 * 60) * 1_000)
        #expect(relayed("143306.00") == 20_001 * day + (14 * 3_600 + 33 * 60 + 6) * 1_000)
        #expect(relayed("000000.50") == 20_001 * day + 500)
    }
}
