import Testing

@testable import GNSSProtocol

/// When a cycle's fix is reported: the gpsd daemon's first cycle, sentence by sentence, and the learned ender.
@Suite struct NMEACycleReportingTests {
    /// Cycles of RMC, GGA and GSA: GGA is the last timestamped sentence, so it ends each cycle.
    static let cycles: [UInt8] = {
        var text = ""
        for s in 0..<3 {
            for body in [
                "GPRMC,12000\(s),A,4807.0\(s)0,N,01131.000,E,1.0,90.0,231126,,",
                "GPGGA,12000\(s),4807.0\(s)0,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                "GPGSA,A,3,01,02,03,04,,,,,,,,,2.0,1.0,1.7",
            ] {
                text += NMEAFramingTests.line(body) + "\r\n"
            }
        }
        return Array(text.utf8)
    }()

    /// The fixes `decoder` reports while fed `bytes` line by line, with the number of lines fed before each.
    static func fixes(_ decoder: inout NMEADecoder, _ bytes: [UInt8]) -> [(lines: Int, fix: Fix)] {
        var out: [(Int, Fix)] = []
        var lines = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            lines += 1
            decoder.feed(Array(line) + [UInt8(ascii: "\n")]) { if case .fix(let f) = $0 { out.append((lines, f)) } }
        }
        return out
    }

    /// gpsd.c: while no cycle has ended (`!cycle_end_reliable`) the daemon reports after every sentence that sets a
    /// position or mode, so a client has the first position at once; from the second cycle on, at the ender.
    @Test func aLiveDecoderReportsTheFirstCycleAfterEachPositionOrModeSentence() {
        var decoder = NMEADecoder(liveDevice: "/dev/ttyUSB0")
        let fixes = Self.fixes(&decoder, Self.cycles)
        #expect(fixes.map(\.lines) == [1, 2, 3, 5, 8])
        #expect(fixes.map(\.fix.mode) == [.twoD, .threeD, .threeD, .threeD, .threeD])
        #expect(fixes[0].fix.altitudeMSL == nil && fixes[1].fix.altitudeMSL == 545.4)
        #expect(fixes.allSatisfy { $0.fix.device == "/dev/ttyUSB0" })
        #expect(decoder.statistics.fixes == 5)
    }

    /// The start of gpsd's `hemi.log`: GGAs without a time saying "no fix", a ZDA each second. gpsd 3.22 forces a
    /// report of each such GGA, and its daemon sends a TPV of mode 1 with the last ZDA's time (none before the first
    /// ZDA), two per second here, as `gpspipe -w` shows it beside `gpsfake` replaying the log; `gpsdecode` prints
    /// none, and neither does a recording decoder.
    @Test func aGGAWithoutATimeSayingNoFixIsReportedByTheLiveDecoderAsGpsdDoes() {
        let text = [
            "$GPHDT,,T*1B", "$GPGGA,,,,,,0,,,,M,,M,,*66", "$GPVTG,,T,,M,,N,,K,N*2C",
            "$GPZDA,193913.00,07,09,2018,00,00*63", "$GPHDT,,T*1B", "$GPGGA,,,,,,0,,,,M,,M,,*66",
            "$GPVTG,,T,,M,,N,,K,N*2C", "$GPHDT,,T*1B", "$GPGGA,,,,,,0,,,,M,,M,,*66", "$GPVTG,,T,,M,,N,,K,N*2C",
            "$GPZDA,193914.00,07,09,2018,00,00*64", "$GPHDT,,T*1B", "$GPGGA,,,,,,0,,,,M,,M,,*66",
        ].map { $0 + "\r\n" }.joined()
        var live = NMEADecoder(liveDevice: "/dev/ttyUSB0")
        let fixes = Self.fixes(&live, Array(text.utf8))
        #expect(fixes.map(\.lines) == [2, 6, 9, 13])
        #expect(fixes.allSatisfy { $0.fix.mode == .noFix && $0.fix.latitude == nil })
        #expect(
            fixes.map { $0.fix.time?.iso8601 } == [
                nil, "2018-09-07T19:39:13.000Z", "2018-09-07T19:39:13.000Z", "2018-09-07T19:39:14.000Z",
            ])
        var recording = NMEADecoder(device: "log")
        #expect(Self.fixes(&recording, Array(text.utf8)).isEmpty)
        #expect(recording.statistics.malformed == 4)
    }

    /// gpsdecode reports the first cycle once, complete, when the next begins; then at the ender, learned from
    /// that first cycle.
    @Test func aRecordingDecoderReportsTheFirstCycleWhenTheNextBegins() {
        var decoder = NMEADecoder(device: "log")
        let fixes = Self.fixes(&decoder, Self.cycles)
        #expect(fixes.map(\.lines) == [4, 5, 8])
        #expect(fixes.allSatisfy { $0.fix.mode == .threeD && $0.fix.altitudeMSL == 545.4 })
    }

    /// Every type that ever ended a cycle reports the cycle, as gpsd's `cycle_enders` do: when the order changes
    /// (or a cycle leaves out a sentence), a cycle is reported at each such type, the last report whole, and none
    /// waits for the next cycle to begin where gpsd reported it.
    @Test func everyTypeThatEverEndedACycleReportsIt() {
        var text = ""
        let orders = [["RMC", "GGA"], ["RMC", "GGA"]] + Array(repeating: ["GGA", "RMC"], count: 4)
        for (s, order) in orders.enumerated() {
            for type in order {
                let body =
                    type == "RMC"
                    ? "GPRMC,12000\(s),A,4807.038,N,01131.000,E,1.0,90.0,231126,,"
                    : "GPGGA,12000\(s),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
                text += NMEAFramingTests.line(body) + "\r\n"
            }
        }
        var decoder = NMEADecoder(device: "log")
        let fixes = Self.fixes(&decoder, Array(text.utf8))
        // Cycle 0 when cycle 1 begins; cycles 1 and 2 at their GGA, the ender learned from cycle 0 (cycle 2 without
        // its RMC, as from gpsd); then GGA ended cycle 1 and RMC cycle 2, so cycles 3, 4 and 5 go out at their GGA
        // and again, whole, at their RMC, as gpsd reports them.
        #expect(fixes.map(\.lines) == [3, 4, 5, 7, 8, 9, 10, 11, 12])
    }

    /// A sky view completed by the last sentences of the input is reported when the input ends, with the device like
    /// every other view (gpsd names the device in every SKY).
    @Test func aViewCompletedAtTheEndOfTheInputNamesTheDevice() {
        var text = ""
        for body in [
            "GPGGA,120000,4807.000,N,01131.000,E,1,04,0.9,545.4,M,46.9,M,,",
            "GPGSA,A,3,01,02,03,04,,,,,,,,,2.0,1.0,1.7",
            "GPGSV,1,1,04,01,40,083,46,02,17,308,41,03,07,344,39,04,22,228,45",
            "GPRMC,120001,A,4807.000,N,01131.000,E,1.0,90.0,231126,,",
            "GPGSV,1,1,04,01,41,083,46,02,17,308,41,03,07,344,39,04,22,228,45",
        ] {
            text += NMEAFramingTests.line(body) + "\r\n"
        }
        var decoder = NMEADecoder(device: "/dev/ttyUSB0")
        var views: [SkyView] = []
        decoder.feed(Array(text.utf8)) { if case .sky(let view) = $0 { views.append(view) } }
        #expect(views.count == 1)
        decoder.finish { if case .sky(let view) = $0 { views.append(view) } }
        #expect(views.map(\.device) == ["/dev/ttyUSB0", "/dev/ttyUSB0"])
        #expect(views.last?.satellites.first?.elevation == 41)
    }
}
