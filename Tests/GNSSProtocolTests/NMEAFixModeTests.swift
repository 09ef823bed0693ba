import GNSSProtocol
import Testing

/// The fix mode, status and speed as gpsd 3.22's NMEA driver gives them (`processRMC`, `processGGA`, `processGLL`
/// and the end of `nmea_parse` in `driver_nmea0183.c`), on fragments of gpsd's regression logs; the expected values
/// are what `gpsdecode` prints for the same fragment.
@Suite struct NMEAFixModeTests {
    /// Sentences as logged, `$` and checksum included, decoded with dates as sent: the fixes reported.
    static func fixes(_ lines: [String]) -> [Fix] {
        let text = lines.map { $0 + "\r\n" }.joined()
        return NMEADecoder.decode(Array(text.utf8), weekRollover: .asSent).events.compactMap {
            if case .fix(let fix) = $0 { fix } else { nil }
        }
    }

    /// The last fix reported for `timeOfDay`, in milliseconds after midnight.
    static func fix(_ fixes: [Fix], at timeOfDay: Int) -> Fix? {
        fixes.last { $0.time.map { Int($0.millisecondsSince1970 % 86_400_000) } == timeOfDay }
    }

    /// `garmin25lp.log` (Garmin GPS 25LP): GGA gives an altitude but only 3 satellites, GSA says 2D.
    static let garmin25lp = [
        "$GPRMC,120326,A,4221.3871,N,01322.0800,E,000.0,000.0,150305,001.4,E*77",
        "$GPGGA,120326,4221.3871,N,01322.0800,E,1,00,3.1,746.1,M,44.2,M,,*40",
        "$GPGSA,A,2,01,03,,14,,,,,,,,,3.1,3.1,*1A",
        "$GPRMC,120327,A,4221.3872,N,01322.0800,E,000.0,000.0,150305,001.4,E*75",
        "$GPGGA,120327,4221.3872,N,01322.0800,E,1,03,3.1,746.1,M,44.2,M,,*41",
        "$GPGSA,A,2,01,03,,14,,,,,,,,,3.1,3.1,*1A",
        "$GPRMC,120328,A,4221.3873,N,01322.0800,E,000.0,000.0,150305,001.4,E*7B",
        "$GPGGA,120328,4221.3873,N,01322.0800,E,1,03,3.1,746.1,M,44.2,M,,*4F",
        "$GPGSA,A,2,01,03,,14,,,,,,,,,3.1,3.1,*1A",
        "$GPRMC,120329,A,4221.3874,N,01322.0805,E,000.0,000.0,150305,001.4,E*78",
    ]

    /// 12:03:27 and 12:03:28. gpsd: the RMC that starts a cycle finds the previous cycle's altitude and says 3D; GGA's 2D (3 satellites)
    /// and GSA's 2D then stay 3D, since the fix so far is 3D and the previous one had an altitude.
    @Test func a2DSentenceAfterA3DFixWithAnAltitudeStays3D() throws {
        let fixes = Self.fixes(Self.garmin25lp)
        for time in [43_407_000, 43_408_000] {
            let fix = try #require(Self.fix(fixes, at: time))
            #expect(fix.mode == .threeD)
            #expect(fix.altitudeMSL == 746.1)
            #expect(fix.geoidSeparation == 44.2)
        }
    }

    /// `sl869.log` (Telit SL869): no fix and no date until 10:21:43, whose GGA gives an altitude with 3 satellites
    /// and whose GSAs say 2D; the no-fix cycle before had an altitude but no time, so gpsd's `lastfix` and
    /// `oldfix` have none and the fix stays 2D, with its altitude printed. The next cycle is 3D.
    static let sl869 = [
        "$GPRMC,102142.000,V,3340.8472,S,15117.3205,E,0.0,0.0,251112,0.0,W*7A",
        "$GPGGA,102142.000,3340.8472,S,15117.3205,E,0,02,99.0,064.19,M,22.4,M,,*42",
        "$GNGSA,A,1,10,17,,,,,,,,,,,99.0,99.0,99.0*19",
        "$GPRMC,102143.000,A,3340.7732,S,15117.4478,E,6.7,155.1,251112,0.0,W*6E",
        "$GPGGA,102143.000,3340.7732,S,15117.4478,E,1,03,4.1,063.76,M,22.4,M,,*7B",
        "$GNGSA,A,2,10,17,12,,,,,,,,,,4.2,4.1,1.0*2B",
        "$GNGSA,A,2,,,,,,,,,,,,,4.2,4.1,1.0*2F",
        "$GPRMC,102143.990,A,3340.7753,S,15117.4475,E,6.7,155.8,251112,0.0,W*6D",
        "$GPGGA,102143.990,3340.7753,S,15117.4475,E,1,03,99.0,063.79,M,22.4,M,,*4B",
        "$GNGSA,A,2,10,17,12,,,,,,,,,,99.0,99.0,99.0*19",
    ]

    @Test func aFixWithoutATimeLeavesNoAltitudeForTheModeRule() throws {
        let fixes = Self.fixes(Self.sl869)
        let first = try #require(Self.fix(fixes, at: 37_303_000))
        #expect(first.mode == .twoD)
        #expect(first.altitudeMSL == 63.76)
        let second = try #require(Self.fix(fixes, at: 37_303_990))
        #expect(second.mode == .threeD)
        #expect(second.altitudeMSL == 63.79)
    }

    /// `motorola-t805.log` (Motorola T805): two cycles without a fix, whose invalid RMC has no time, leave GGA as
    /// the last timestamped sentence, so gpsd takes GGA as a cycle ender too; the first fix after the gap is
    /// reported at its GGA and again at its RMC, which brings the speed (0.00 knots).
    static let motorola = [
        "$GPGGA,212618.000,4839.9411,N,00214.9065,E,1,04,2.2,168.0,M,47.3,M,,0000*5F",
        "$GPRMC,212618.000,A,4839.9411,N,00214.9065,E,0.00,,181207,0,A*69",
        "$GPGGA,212619.000,,,,,0,00,50.0,,M,0.0,M,,0000*42",
        "$GPRMC,212619.000,V,,,,,,,181207,0,N*53",
        "$GPGGA,212620.000,,,,,0,00,50.0,,M,0.0,M,,0000*48",
        "$GPRMC,212620.000,V,,,,,,,181207,0,N*59",
        "$GPGGA,212621.000,4839.9411,N,00214.9065,E,1,04,2.2,168.0,M,47.3,M,,0000*55",
        "$GPRMC,212621.000,A,4839.9411,N,00214.9065,E,0.00,,181207,0,A*63",
        "$GPGGA,212622.000,4839.9411,N,00214.9065,E,1,04,2.2,168.0,M,47.3,M,,0000*56",
        "$GPRMC,212622.000,A,4839.9411,N,00214.9065,E,0.00,,181207,0,A*60",
    ]

    @Test func theSpeedOfTheFirstFixAfterAGapIsReported() throws {
        let fixes = Self.fixes(Self.motorola)
        let afterGap = fixes.filter { $0.time.map { $0.millisecondsSince1970 % 86_400_000 } == 77_181_000 }
        #expect(afterGap.map(\.speed) == [nil, 0])
        #expect(afterGap.map(\.mode) == [.threeD, .threeD])
        #expect(Self.fix(fixes, at: 77_182_000)?.speed == 0)
    }

    /// `nmea-rtk.log` (an RTK receiver): GGA says RTK fixed (quality 4), the RMC after it says D in its FAA mode.
    static let rtk = [
        "$GNGGA,133859.80,4134.50180205,N,09345.03586649,W,4,19,0.7,280.827,M,-31.442,M,5.8,0002*6D",
        "$GNRMC,133859.80,A,4134.50180205,N,09345.03586649,W,0.008,0.000,180320,11.5982,E,D*36",
        "$GNGGA,133859.90,4134.50180209,N,09345.03586633,W,4,19,0.7,280.828,M,-31.442,M,5.9,0002*63",
        "$GNRMC,133859.90,A,4134.50180209,N,09345.03586633,W,0.005,0.000,180320,11.5982,E,D*3B",
        "$GNGGA,133900.00,4134.50180323,N,09345.03586581,W,4,19,0.7,280.827,M,-31.442,M,6.0,0002*61",
        "$GNRMC,133900.00,A,4134.50180323,N,09345.03586581,W,0.008,0.000,180320,11.5982,E,D*31",
        "$GNGGA,133900.10,4134.50180243,N,09345.03586611,W,4,19,0.7,280.828,M,-31.442,M,6.1,0002*63",
    ]

    /// gpsd merges each sentence's status into the cycle's upward only (`gps_merge_fix`): the RTK fix (status 3)
    /// stays, where the RMC's D alone would say 2. gpsdecode prints status 3 for 13:38:59.9 and 13:39:00.0.
    @Test func aStatusIsRaisedByASentenceNeverLowered() throws {
        let fixes = Self.fixes(Self.rtk)
        for time in [49_139_900, 49_140_000] {
            #expect(Self.fix(fixes, at: time)?.status == 3)
        }
    }
}
