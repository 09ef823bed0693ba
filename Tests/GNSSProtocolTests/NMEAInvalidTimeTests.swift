import GNSSProtocol
import Testing

/// A timed sentence (GGA, RMC, GLL, GNS) whose time field is not a time of day, after a valid cycle: it is counted
/// as malformed, starts no cycle and joins none.
///
/// Before the fix, such a GGA at the end of a cycle stamped 12:35:20 was merged into a second 3D fix stamped
/// 12:35:20, with its altitude making `"climb":-535.400`, and the summary counted no malformed sentence.
@Suite struct NMEAInvalidTimeTests {
    /// A valid cycle at 12:35:20: RMC (which gives the date) then GGA.
    static let validCycle = [
        "GPRMC,123520,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
        "GPGGA,123520,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
    ]

    static func decode(_ bodies: [String]) -> (fixes: [Fix], statistics: NMEAStatistics) {
        let text = bodies.map { NMEAFramingTests.line($0) + "\r\n" }.joined()
        // The cycles are dated 1994 (the NMEA standard's example): kept as sent, not moved 1024 weeks.
        let (events, statistics) = NMEADecoder.decode(Array(text.utf8), weekRollover: .asSent)
        let fixes = events.compactMap { event -> Fix? in
            if case .fix(let fix) = event { fix } else { nil }
        }
        return (fixes, statistics)
    }

    @Test(arguments: ["256161", "12a519", "-12519", ""])
    func aGGAWhoseTimeIsNotATimeIsMalformedAndJoinsNoFix(time: String) throws {
        let (fixes, statistics) = Self.decode(
            Self.validCycle + ["GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,10.0,M,46.9,M,,"])
        #expect(statistics.malformed == 1)
        #expect(statistics.decoded == 2)
        #expect(fixes.count == 1, "only the valid cycle is a fix: \(fixes)")
        let fix = try #require(fixes.first)
        #expect(fix.altitudeMSL == 545.4)
        #expect(fix.climb == nil)
    }

    @Test(arguments: [
        "GPRMC,256161,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
        "GPGLL,4807.038,N,01131.000,E,12a519,A,A",
        "GNGNS,-12519,4807.038,N,01131.000,E,AN,08,0.9,10.0,46.9,,,S",
    ])
    func anyTimedSentenceWhoseTimeIsNotATimeIsMalformed(sentence: String) throws {
        let (fixes, statistics) = Self.decode(Self.validCycle + [sentence])
        #expect(statistics.malformed == 1)
        #expect(fixes.count == 1, "only the valid cycle is a fix: \(fixes)")
        #expect(fixes.first?.time?.iso8601 == "1994-03-23T12:35:20.000Z")
    }

    /// The next valid cycle after the malformed sentence is decoded as if it had not been there.
    @Test func theNextValidCycleIsUnaffected() throws {
        let (fixes, statistics) = Self.decode(
            Self.validCycle + ["GPGGA,256161,4807.038,N,01131.000,E,1,08,0.9,10.0,M,46.9,M,,"]
                + [
                    "GPRMC,123521,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
                    "GPGGA,123521,4807.038,N,01131.000,E,1,08,0.9,546.4,M,46.9,M,,",
                ])
        #expect(statistics.malformed == 1)
        #expect(fixes.map(\.altitudeMSL) == [545.4, 546.4])
        #expect(fixes.last?.time?.iso8601 == "1994-03-23T12:35:21.000Z")
    }
}
