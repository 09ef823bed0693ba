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

    /// `quectelLC79D.log` (Quectel LC79D): one cycle split over GP (two signals), GL, QZ, BD and GA series, then a
    /// GPGSA and two GNGSAs.
    static let quectelCycle = [
        "$GPGGA,115033.00,5002.457296,N,01958.828604,E,1,20,0.4,246.0,M,,M,,*78",
        "$GPGSV,3,1,10,02,25,260,39,04,15,092,27,05,,,14,06,12,215,45*4D",
        "$GPGSV,3,2,10,07,80,137,44,09,53,089,27,30,55,211,49*44",
        "$GPGSV,3,3,10,06,,,40,09,,,27,30,,,39,8*6B",
        "$GLGSV,2,1,06,74,20,191,42,70,38,115,43,73,64,151,49,88,15,341,22*6C",
        "$GLGSV,2,2,06,71,,,27,72,32,310,16*51",
        "$QZGSV,1,1,01,02,05,042,29*5E",
        "$BDGSV,1,1,01,219,,,47*50",
        "$GAGSV,2,1,04,102,28,167,40,103,69,097,33*61",
        "$GAGSV,2,2,04,102,,,40,103,,,29,1*7F",
        "$GPGSA,A,3,02,04,06,07,09,30,,,,,,,1.37,0.77,1.14*0E",
        "$GNGSA,A,3,02,04,06,07,09,30,,,,,,,1.37,0.77,1.14*10",
        "$GNGSA,A,3,70,72,73,74,88,,,,,,,,1.37,0.77,1.14*18",
        "$GPRMC,115033.00,A,5002.457296,N,01958.828604,E,0.0,,301120,,,A*7D",
    ]

    @Test func aViewSplitOverFiveTalkersKeepsEverySeries() throws {
        let sky = try #require(Self.decode(Self.quectelCycle).last)
        #expect(sky.satellitesInView == 20)
        #expect(
            sky.satellites.map(\.prn) == [
                2, 4, 5, 6, 7, 9, 30, 6, 9, 30, 74, 70, 73, 88, 71, 72, 194, 419, 302, 303,
            ])
    }

    /// `quectel.log`: an NMEA 4.10 GSA (system ID 1 at its end). gpsd 3.22 reads one field more than the twelve
    /// satellites there, the PDOP, whose whole part (1 of 1.3) it lists as satellite 1, which the GSV shows.
    @Test func anNMEA410GSAListsItsPDOPsWholePartAsGpsdDoes() throws {
        let sky = try #require(
            Self.decode([
                "$GPGSA,A,2,06,07,11,19,22,28,30,,,,,,1.3,1.0,0.8,1*25",
                "$GPGSV,3,1,11,01,37,122,33,03,03,074,38,06,15,348,37,07,18,022,51,1*69",
                "$GPGSV,3,2,11,11,13,133,37,19,43,291,33,22,07,094,43,30,47,008,54,1*63",
                "$GPGSV,3,3,11,13,21,278,,39,,,34,46,,,50,1*52",
                "$GPGGA,022026.00,3644.759390,S,17444.072857,E,1,08,1.0,56.1,M,37.0,M,,*43",
            ]).last)
        #expect(sky.satellitesInView == 11)
        #expect(sky.satellites.filter(\.used).map(\.prn) == [1, 6, 7, 11, 19, 22, 30])
    }

    /// Four cycles whose GSA follows their GSVs (as `gpsdf.log`, `sl869.log` and `quectelLC79D.log` send them), each
    /// GSA with other DOPs, GGA's HDOP changing too.
    static let gsaAfterGSV = [
        "$GPRMC,120000.00,A,4807.038,N,01131.000,E,000.5,054.7,221126,,,A*58",
        "$GPGGA,120000.00,4807.038,N,01131.000,E,1,05,1.1,545.4,M,46.9,M,,*63",
        "$GPGSV,2,1,05,04,45,100,40,05,30,200,41,09,60,300,42,12,20,050,43*77",
        "$GPGSV,2,2,05,24,10,150,44*4F",
        "$GPGSA,A,3,04,05,09,12,24,,,,,,,,2.0,1.1,1.0*3C",
        "$GPRMC,120001.00,A,4807.038,N,01131.000,E,000.5,054.7,221126,,,A*59",
        "$GPGGA,120001.00,4807.038,N,01131.000,E,1,05,2.2,545.4,M,46.9,M,,*62",
        "$GPGSV,2,1,05,04,45,100,40,05,30,200,41,09,60,300,42,12,20,050,43*77",
        "$GPGSV,2,2,05,24,10,150,44*4F",
        "$GPGSA,A,3,04,05,09,12,24,,,,,,,,2.1,2.2,1.1*3C",
        "$GPRMC,120002.00,A,4807.038,N,01131.000,E,000.5,054.7,221126,,,A*5A",
        "$GPGGA,120002.00,4807.038,N,01131.000,E,1,05,3.3,545.4,M,46.9,M,,*61",
        "$GPGSV,2,1,05,04,45,100,40,05,30,200,41,09,60,300,42,12,20,050,43*77",
        "$GPGSV,2,2,05,24,10,150,44*4F",
        "$GPGSA,A,3,04,05,09,12,24,,,,,,,,2.2,3.3,1.2*3C",
        "$GPRMC,120003.00,A,4807.038,N,01131.000,E,000.5,054.7,221126,,,A*5B",
        "$GPGGA,120003.00,4807.038,N,01131.000,E,1,05,4.4,545.4,M,46.9,M,,*60",
        "$GPGSV,2,1,05,04,45,100,40,05,30,200,41,09,60,300,42,12,20,050,43*77",
        "$GPGSV,2,2,05,24,10,150,44*4F",
        "$GPGSA,A,3,04,05,09,12,24,,,,,,,,2.3,4.4,1.3*3C",
    ]

    /// gpsd sends a SKY when its last GSV arrives, with the DOPs of that moment: the GGA's HDOP of the same cycle,
    /// the PDOP and VDOP of the GSA before it (none for the first). Were the GSA that follows counted in, each view
    /// would have its own cycle's PDOP and VDOP. gpsdecode prints these four views for the fragment.
    @Test func aViewHasTheDOPsOfItsLastGSVNotOfTheGSAAfterIt() {
        let views = Self.decode(Self.gsaAfterGSV)
        #expect(views.map { Self.hundredths($0.pdop) } == [nil, 200, 210, 220])
        #expect(views.map { Self.hundredths($0.hdop) } == [110, 220, 330, 440])
        #expect(views.map { Self.hundredths($0.vdop) } == [nil, 100, 110, 120])
    }
}
