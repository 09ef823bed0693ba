import GNSSProtocol
import Testing

@Suite struct NMEAFramingTests {
    static func line(_ body: String, lowercase: Bool = false) -> String {
        NMEAChecksum.sentence(body, lowercase: lowercase, lineEnd: false)
    }

    static let rmc = "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"

    static func fixes(_ text: String) -> ([Fix], NMEAStatistics) {
        let (events, statistics) = NMEADecoder.decode(Array(text.utf8))
        return (events.compactMap { if case .fix(let f) = $0 { f } else { nil } }, statistics)
    }

    @Test(arguments: ["\r\n", "\n", "\r"])
    func acceptsEveryLineEnd(_ end: String) {
        let (fixes, stats) = Self.fixes(Self.line(Self.rmc) + end + Self.line(Self.rmc) + end)
        #expect(stats.decoded == 2)
        #expect(fixes.first?.latitude == 48.1173)
    }

    @Test func acceptsLowercaseAndMissingChecksums() {
        let text = Self.line(Self.rmc, lowercase: true) + "\n$" + Self.rmc + "\n"
        let (_, stats) = Self.fixes(text)
        #expect(stats.decoded == 2)
        #expect(stats.badChecksum == 0)
    }

    @Test func dropsAndCountsBadChecksums() {
        var bad = Self.line(Self.rmc)
        bad.removeLast()
        bad += bad.hasSuffix("0") ? "1" : "0"
        let (fixes, stats) = Self.fixes(bad + "\r\n")
        #expect(stats.badChecksum == 1)
        #expect(stats.decoded == 0)
        #expect(fixes.isEmpty)
    }

    @Test func acceptsLinesUpTo102BytesAndRejectsLonger() {
        // Pad the RMC with empty trailing fields to exactly 102 and 103 bytes.
        var body = Self.rmc
        while Self.line(body).utf8.count < 102 { body += "," }
        let exact = Self.line(body)
        #expect(exact.utf8.count == 102)
        let long = Self.line(body + ",")
        #expect(long.utf8.count == 103)
        let (_, stats) = Self.fixes(exact + "\r\n" + long + "\r\n" + Self.line(Self.rmc) + "\r\n")
        #expect(stats.decoded == 2)
        #expect(stats.tooLong == 1)
    }

    @Test func skipsSplicedSentencesAndResynchronises() {
        let cut = String(Self.line(Self.rmc).prefix(30))
        let (_, stats) = Self.fixes(cut + Self.line(Self.rmc) + "\r\n")
        #expect(stats.truncated == 1)
        #expect(stats.decoded == 1)
    }

    /// A connection dropped inside a GGA without checksum leaves `...,1,08,0.9,4` for `...,1,08,0.9,408.0,M,...`:
    /// gpsd drops a last line without a line end, and so does the decoder, whatever the chunks.
    @Test func aLastSentenceWithoutALineEndIsDroppedAsCut() {
        let gga = "$GPGGA,123520,4807.038,N,01131.000,E,1,08,0.9,408.0,M,46.9,M,,"
        let cut = String(gga.prefix(gga.count - 15))
        #expect(cut.hasSuffix(",0.9,4"))
        let text = Self.line(Self.rmc) + "\r\n" + cut
        let (fixes, stats) = Self.fixes(text)
        #expect(stats.truncated == 1)
        #expect(stats.decoded == 1, "the RMC only")
        #expect(fixes.count == 1 && fixes.allSatisfy { $0.altitudeMSL == nil && $0.mode == .twoD })
        var decoder = NMEADecoder()
        var events: [NMEAEvent] = []
        for byte in Array(text.utf8) { decoder.feed([byte]) { events.append($0) } }
        decoder.finish { events.append($0) }
        #expect(decoder.statistics.truncated == 1 && decoder.statistics.decoded == 1, "byte by byte too")
        #expect(!events.contains { if case .fix(let fix) = $0 { fix.altitudeMSL != nil } else { false } })
        let whole = Self.fixes(Self.line(Self.rmc) + "\r\n" + gga + "\r\n").0
        #expect(whole.last?.altitudeMSL == 408, "the same GGA with its line end is decoded")
    }

    @Test func skipsNoiseCommentsAndProprietarySentences() {
        let text =
            "# a comment $GPRMC,not,a,sentence\n\u{0}\u{1}\u{FF}garbage" + Self.line(Self.rmc) + "\r\n"
            + Self.line("PGRMZ,246,f,3") + "\r\n"
            + "!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26\r\n"
        let (_, stats) = Self.fixes(text)
        #expect(stats.comments == 1)
        #expect(stats.noiseBytes > 0)
        #expect(stats.decoded == 1)
        #expect(stats.unsupported == 2)
    }

    @Test func rejectsControlBytesInsideASentence() {
        let (_, stats) = Self.fixes("$GPRMC,123519,A,48\u{1}07.038,N*00\r\n")
        #expect(stats.malformed == 1)
        #expect(stats.decoded == 0)
    }

    @Test func chunkBoundariesDoNotMatter() {
        var text = ""
        for s in 0..<20 {
            let t = 120_000 + s
            text += Self.line("GPGGA,\(t),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + "\r\n"
            text += Self.line("GPRMC,\(t),A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W") + "\r\n"
        }
        let bytes = Array(text.utf8)
        let whole = NMEADecoder.decode(bytes).events
        for chunk in [1, 3, 7, 64] {
            var decoder = NMEADecoder()
            var events: [NMEAEvent] = []
            var i = 0
            while i < bytes.count {
                decoder.feed(bytes[i..<min(i + chunk, bytes.count)]) { events.append($0) }
                i += chunk
            }
            decoder.finish { events.append($0) }
            #expect(events == whole, "chunk size \(chunk)")
        }
        #expect(whole.count == 20)
    }

    @Test func acceptsAnyTwoLetterTalker() {
        for talker in ["GP", "GN", "GL", "GA", "GB", "BD", "GQ", "GI", "QZ"] {
            let (_, stats) = Self.fixes(Self.line(talker + Self.rmc.dropFirst(2)) + "\r\n")
            #expect(stats.decoded == 1, "talker \(talker)")
        }
    }

    /// Ten thousand bytes without a line end: one over-long sentence, then noise, counted, up to the next `$`,
    /// where decoding resumes.
    @Test func anOverLongSentenceWithoutALineEndIsNoiseUpToTheNextSentence() {
        var decoder = NMEADecoder()
        let junk = "$" + String(repeating: "A", count: 10_000)
        let rmcs = ["120000", "120001"].map {
            Self.line("GPRMC,\($0).00,A,4807.038,N,01131.000,E,0.0,0.0,221126,,,A") + "\r\n"
        }
        var events: [NMEAEvent] = []
        decoder.feed(Array((junk + rmcs.joined()).utf8)) {
            events.append($0)
        }
        decoder.finish { events.append($0) }
        #expect(decoder.statistics.tooLong == 1)
        #expect(decoder.statistics.noiseBytes == 10_001 - 103, "all but the 103 bytes that made it over-long")
        #expect(decoder.statistics.badChecksum == 0)
        #expect(events.contains { if case .fix(let fix) = $0 { fix.time != nil } else { false } }, "the RMC after it")
    }
}
