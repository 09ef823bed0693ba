import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// ``WeekRolloverRule``: gpsd 3.22's correction of dates 1024 weeks late, and dates kept as sent.
@Suite(.hangBound) struct WeekRolloverTests {
    /// `cycles` RMC + GGA pairs from `time` (hhmmss, seconds counting up), dated `date` (ddmmyy).
    static func stream(date: String, hhmm: String, from second: Int, cycles: Int, ggaFirst: Bool = false) -> [UInt8] {
        var text = ""
        for s in second..<(second + cycles) {
            let time = hhmm + (s < 10 ? "0\(s)" : "\(s)")
            let rmc = NMEAChecksum.sentence("GPRMC,\(time),A,4807.038,N,01131.000,E,022.4,084.4,\(date),003.1,W")
            let gga = NMEAChecksum.sentence("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            text += ggaFirst ? gga + rmc : rmc + gga
        }
        return Array(text.utf8)
    }

    static func times(_ bytes: [UInt8], _ rule: WeekRolloverRule) -> (times: [String], statistics: NMEAStatistics) {
        let (events, statistics) = NMEADecoder.decode(bytes, weekRollover: rule)
        let times = events.compactMap { event -> String? in
            if case .fix(let fix) = event { fix.time?.iso8601 } else { nil }
        }
        return (times, statistics)
    }

    /// A receiver with the rollover bug, in October 2018, reports March 1999: gpsd's rule brings it back.
    @Test func gpsdsRuleMovesA1999DateTo2018() {
        let bytes = Self.stream(date: "150399", hhmm: "0304", from: 5, cycles: 3)
        let (times, statistics) = Self.times(bytes, .gpsd)
        #expect(times == ["2018-10-29T03:04:05.000Z", "2018-10-29T03:04:06.000Z", "2018-10-29T03:04:07.000Z"])
        // Each RMC's date is moved once; the GGA after it finds the moved date, from 2018, and keeps it.
        #expect(statistics.weekRolloverCorrections == 3)
        #expect(NMEADecoder.decode(bytes).statistics.weekRolloverCorrections == 3, "gpsd's rule is the default")
    }

    @Test func asSentKeepsTheDates() {
        let (times, statistics) = Self.times(Self.stream(date: "150399", hhmm: "0304", from: 5, cycles: 2), .asSent)
        #expect(times == ["1999-03-15T03:04:05.000Z", "1999-03-15T03:04:06.000Z"])
        #expect(statistics.weekRolloverCorrections == 0)
    }

    /// gpsd keeps the moved date and moves it again while it is before 2017: 1994-03-23 becomes 2013-11-06 at the
    /// RMC and 2033-06-22 at the GGA, which is the cycle's time.
    @Test func aDateStillBefore2017AfterOneMoveMovesAgainAtTheNextSentence() {
        let (times, statistics) = Self.times(Self.stream(date: "230394", hhmm: "1235", from: 19, cycles: 2), .gpsd)
        #expect(times == ["2033-06-22T12:35:19.000Z", "2033-06-22T12:35:20.000Z"])
        #expect(statistics.weekRolloverCorrections == 4)
    }

    /// Times from 2017-01-01T00:00:00Z on are never moved; the last second of 2016 is.
    @Test func theFloorIsTheFirstInstantOf2017() {
        var bytes = Self.stream(date: "311216", hhmm: "2359", from: 58, cycles: 2, ggaFirst: true)
        bytes += Self.stream(date: "010117", hhmm: "0000", from: 0, cycles: 2, ggaFirst: true)
        let (times, _) = Self.times(bytes, .gpsd)
        #expect(
            times == [
                "2036-08-16T23:59:58.000Z", "2036-08-16T23:59:59.000Z", "2017-01-01T00:00:00.000Z",
                "2017-01-01T00:00:01.000Z",
            ])
        let (later, statistics) = Self.times(Self.stream(date: "010117", hhmm: "0000", from: 0, cycles: 3), .gpsd)
        #expect(later.first == "2017-01-01T00:00:00.000Z")
        #expect(statistics.weekRolloverCorrections == 0)
    }

    /// Every time gpsd 3.22's gpsdecode prints, date included, is one our decoder gives under gpsd's rule.
    @Test(.gpsdTools) func datesAreGpsdecodes() async throws {
        let tool = try GPSDReference.gpsdecode()
        var ending2016 = Self.stream(date: "311216", hhmm: "2359", from: 55, cycles: 5, ggaFirst: true)
        ending2016 += Self.stream(date: "010117", hhmm: "0000", from: 0, cycles: 3, ggaFirst: true)
        for bytes in [
            Self.stream(date: "150399", hhmm: "0304", from: 5, cycles: 6),
            Self.stream(date: "230394", hhmm: "1235", from: 19, cycles: 6),
            Self.stream(date: "230394", hhmm: "1235", from: 19, cycles: 6, ggaFirst: true),
            ending2016,
        ] {
            let (output, status) = try await GPSDReference.runGpsdecode(bytes, tool: tool)
            #expect(status == 0)
            let gpsd = output.split(separator: UInt8(ascii: "\n")).compactMap { line -> String? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                    object["class"] as? String == "TPV"
                else { return nil }
                return object["time"] as? String
            }
            let ours = Set(Self.times(bytes, .gpsd).times)
            #expect(gpsd.count >= 4, "gpsdecode reports the cycles after the first")
            #expect(gpsd.filter { !ours.contains($0) } == [], "gpsd's times we do not give; ours: \(ours.sorted())")
        }
    }
}
