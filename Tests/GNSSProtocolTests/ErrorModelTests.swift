import GNSSProtocol
import Testing

/// gpsd's error model and DOPs on a hand-written stream, with the figures gpsd 3.22's `gpsdecode` prints for the same
/// sentences (run on this machine; `DecodeFidelityTests` compares whole logs with gpsdecode itself).
@Suite struct ErrorModelTests {
    /// Three 1 Hz cycles 10 knots east-north-east, 6 of 7 satellites used; PRN 30's elevation 95 and azimuth 400 are
    /// impossible.
    static let bodies: [String] =
        (0...2).flatMap { (k: Int) -> [String] in
            [
                "GPGGA,12000\(k),4807.0\(38 + 2 * k),N,01131.0\(k)0,E,1,06,1.1,\(["545.4", "545.9", "546.2"][k]),M,46.9,M,,",
                "GPGSA,A,3,03,07,11,19,22,28,,,,,,,2.1,1.1,1.8",
                "GPGSV,2,1,07,03,41,050,46,07,60,317,49,11,35,148,45,19,72,076,50",
                "GPGSV,2,2,07,22,09,182,37,28,09,271,36,30,95,400,30",
                "GPRMC,12000\(k),A,4807.0\(38 + 2 * k),N,01131.0\(k)0,E,010.0,084.4,230326,,",
            ]
        } + ["GPGGA,120003,4807.044,N,01131.030,E,1,06,1.1,546.4,M,46.9,M,,"]

    /// `value` as gpsd prints it with `decimals` decimals.
    static func printed(_ value: Double?, _ decimals: Int) -> String? {
        value.map { v in
            var text: [UInt8] = []
            GPSDJSONWriter.appendFixed(v, decimals: decimals, to: &text)
            return String(decoding: text, as: UTF8.self)
        }
    }

    @Test func errorEstimatesAreGpsds() throws {
        let (fixes, _) = NMEASentenceTests.decode(Self.bodies)
        let fix = try #require(fixes.first { $0.time?.iso8601 == "2026-03-23T12:00:01.000Z" })
        #expect(Self.printed(fix.ept, 3) == "0.005")
        #expect(Self.printed(fix.epx, 3) == "14.970")
        #expect(Self.printed(fix.epy, 3) == "15.678")
        #expect(Self.printed(fix.epv, 3) == "41.400")
        #expect(Self.printed(fix.eph, 3) == "20.900")
        #expect(Self.printed(fix.sep, 3) == "39.900")
        #expect(Self.printed(fix.eps, 2) == "31.36")
        #expect(Self.printed(fix.epc, 2) == "82.80")
        #expect(fix.horizontalAccuracy == fix.eph && fix.verticalAccuracy == fix.epv)
        #expect(Self.printed(fix.magneticVariation, 1) == "3.3")
        #expect(Self.printed(fix.magneticTrack, 4) == "87.7265")
    }

    @Test func skyCarriesEveryDOPAndDropsImpossibleAngles() throws {
        let (_, skies) = NMEASentenceTests.decode(Self.bodies)
        let sky = try #require(skies.last)
        #expect(Self.printed(sky.xdop, 2) == "1.00")
        #expect(Self.printed(sky.ydop, 2) == "1.05")
        #expect(Self.printed(sky.tdop, 2) == "1.32")
        #expect(Self.printed(sky.gdop, 2) == "2.85")
        #expect(sky.hdop == 1.1 && sky.vdop == 1.8 && sky.pdop == 2.1, "the receiver's own DOPs stay")
        let impossible = try #require(sky.satellites.first { $0.prn == 30 })
        #expect(impossible.elevation == nil && impossible.azimuth == nil && impossible.signalStrength == 30)
        #expect(sky.satellitesUsed == 6)
    }
}
