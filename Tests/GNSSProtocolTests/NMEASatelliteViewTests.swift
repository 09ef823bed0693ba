import GNSSProtocol
import Testing

/// Satellite views as gpsd 3.22 builds them from GSV and GSA (`processGSV`, `processGSA` and `nmeaid_to_prn` in
/// `driver_nmea0183.c`), on fragments of gpsd's regression logs; the expected values are what `gpsdecode` prints
/// for the same fragment.
@Suite struct NMEASatelliteViewTests {
    /// Sentences as logged, `$` and checksum included, decoded with dates as sent.
    static func decode(_ lines: [String]) -> [SkyView] {
        let text = lines.map { $0 + "\r\n" }.joined()
        return NMEADecoder.decode(Array(text.utf8), weekRollover: .asSent).events.compactMap {
            if case .sky(let sky) = $0 { sky } else { nil }
        }
    }

    /// A DOP as gpsd prints it (two decimals), in hundredths.
    static func hundredths(_ dop: Double?) -> Int? { dop.map { Int(($0 * 100).rounded()) } }

    /// `skytraq-fixB.log` (SkyTraq S2525F8-BD-RTK): BeiDou satellites numbered 201-237 in `$BDGSV` and `$BDGSA`.
    static let skytraqCycle = [
        "$GPGSA,A,3,23,31,22,16,03,07,,,,,,,1.8,1.1,1.4*3E",
        "$BDGSA,A,3,214,,,,,,,,,,,,1.8,1.1,1.4*18",
        "$GPGSV,4,1,13,23,66,310,29,03,65,186,34,26,43,081,27,16,41,124,39*7E",
        "$GPGSV,4,2,13,51,37,160,38,04,37,066,25,09,34,291,10,22,26,156,37*71",
        "$GPGSV,4,3,13,06,19,301,,31,17,052,21,193,11,307,,07,11,232,25*4C",
        "$GPGSV,4,4,13,01,03,202,30*4A",
        "$BDGSV,1,1,02,214,55,153,40,208,01,299,*67",
        "$GPRMC,182141.000,A,4404.1164403,N,12118.8704326,W,000.0,329.9,290316,,,D*7E",
    ]

    @Test func beidouNumbered201To237IsKeptAsGpsdNumbersIt() throws {
        let sky = try #require(Self.decode(Self.skytraqCycle).last)
        #expect(sky.satellitesInView == 15)
        #expect(sky.satellitesUsed == 7)
        let beidou = sky.satellites.filter { $0.gnssID == 3 }
        #expect(beidou.map(\.prn) == [414, 408])
        #expect(beidou.map(\.svID) == [14, 8])
        #expect(beidou.map(\.used) == [true, false])
        #expect([sky.xdop, sky.ydop, sky.tdop, sky.gdop].map(Self.hundredths) == [78, 83, 95, 202])
    }

    @Test func aLoneBeidouSeriesGivesItsSatellites() throws {
        let sky = try #require(
            Self.decode([
                "$GPGGA,182141.000,4404.1164403,N,12118.8704326,W,2,07,1.1,1215.168,M,-20.300,M,,0000*57",
                "$BDGSV,1,1,02,214,55,153,40,208,01,299,*67",
                "$GPRMC,182141.000,A,4404.1164403,N,12118.8704326,W,000.0,329.9,290316,,,D*7E",
            ]).last)
        #expect(sky.satellitesInView == 2)
        #expect(sky.satellites.map(\.prn) == [414, 408])
    }
}
