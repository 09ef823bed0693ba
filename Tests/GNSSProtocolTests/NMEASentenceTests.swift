import GNSSProtocol
import Testing

@Suite struct NMEASentenceTests {
    static func decode(_ bodies: [String]) -> (fixes: [Fix], skies: [SkyView]) {
        let text = bodies.map { NMEAFramingTests.line($0) + "\r\n" }.joined()
        var fixes: [Fix] = []
        var skies: [SkyView] = []
        // Dates as sent: several cycles here are dated 1994, which gpsd's rule would move 1024 weeks.
        for event in NMEADecoder.decode(Array(text.utf8), weekRollover: .asSent).events {
            switch event {
            case .fix(let f): fixes.append(f)
            case .sky(let s): skies.append(s)
            }
        }
        return (fixes, skies)
    }

    @Test func ggaGivesA3DFixWithAltitudesAndTakesItsDateFromRMC() throws {
        let (fixes, _) = Self.decode([
            "GPRMC,123519.25,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
            "GPGGA,123519.25,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
        ])
        let fix = try #require(fixes.first)
        #expect(fix.mode == .threeD)
        #expect(fix.time?.iso8601 == "1994-03-23T12:35:19.250Z")
        #expect(abs(fix.latitude! - 48.1173) < 1e-9)
        #expect(abs(fix.longitude! - 11.516666667) < 1e-8)
        #expect(fix.altitudeMSL == 545.4)
        #expect(abs(fix.altitudeHAE! - 592.3) < 1e-9)
        #expect(abs(fix.speed! - 22.4 * 1852 / 3600) < 1e-9)
        #expect(fix.track == 84.4)
        #expect(fix.magneticVariation == -3.1)
    }

    @Test func coursesOutsideAFullTurnAreBroughtIntoIt() throws {
        let (fixes, _) = Self.decode([
            "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,720.0,230394,003.1,W",
            "GPRMC,123520,A,4807.038,N,01131.000,E,022.4,-90.0,230394,003.1,W",
            "GPRMC,123521,A,4807.038,N,01131.000,E,022.4,360.0,230394,003.1,W",
            "GPRMC,123522,A,4807.038,N,01131.000,E,022.4,-360.0,230394,003.1,W",
        ])
        #expect(fixes.map(\.track) == [0, 270, 0, 0])
        #expect(fixes.allSatisfy { $0.track?.sign == .plus }, "never -0")
        let (vtg, _) = Self.decode([
            "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
            "GPVTG,-45.5,T,450.25,M,022.4,N,041.5,K,A",
        ])
        let fix = try #require(vtg.last)
        #expect(fix.track == 314.5, "VTG's true track, as RMC's")
        #expect(fix.magneticTrack == 90.25, "and its magnetic track")
    }

    @Test func ggaWithFewerThanThreeSatellitesIsNoFix() throws {
        let (fixes, _) = Self.decode(["GPGGA,123519,4807.038,N,01131.000,E,1,02,0.9,545.4,M,46.9,M,,"])
        let fix = try #require(fixes.first)
        #expect(fix.mode == .noFix)
        #expect(fix.latitude == nil)
    }

    @Test func rmcStatusVOrModeNGivesNoPosition() {
        let (fixes, _) = Self.decode([
            "GPRMC,123519,V,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
            "GPRMC,123520,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W,N",
            "GPRMC,123521,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W,A",
        ])
        #expect(fixes.map(\.mode) == [.noFix, .noFix, .twoD])
        #expect(fixes[0].latitude == nil && fixes[1].latitude == nil)
        #expect(fixes[2].latitude != nil)
    }

    @Test func gllAndGnsGivePositions() {
        let (fixes, _) = Self.decode([
            "GPZDA,101500,01,02,2026,00,00",
            "GPGLL,4916.45,N,12311.12,W,101500,A,A",
            "GNGNS,101501.00,4916.45,S,12311.12,E,AN,08,0.9,12.5,-3.0,,,S",
        ])
        #expect(fixes.count == 2)
        #expect(fixes[0].mode == .twoD && fixes[0].latitude! > 49)
        #expect(fixes[0].time?.iso8601 == "2026-02-01T10:15:00.000Z")
        #expect(fixes[1].mode == .threeD && fixes[1].latitude! < -49 && fixes[1].longitude! > 123)
        #expect(fixes[1].altitudeMSL == 12.5)
    }

    /// The old four-field VTG (`track,mag,knots,kmh`) gives nothing, as in gpsd 3.22, which reads knots from field 5.
    @Test func vtgOldAndNewForms() {
        let (fixes, _) = Self.decode([
            "GPRMC,000001,A,4807.038,N,01131.000,E,,,230326,,",
            "GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A",
            "GPRMC,000002,A,4807.038,N,01131.000,E,,,230326,,",
            "GPVTG,054.7,034.4,005.5,010.2",
            "GPRMC,000003,A,4807.038,N,01131.000,E,,,230326,,",
            "GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,N",
        ])
        #expect(fixes.count == 3)
        #expect(fixes[0].track == 54.7 && fixes[0].magneticTrack == 34.4)
        #expect(abs(fixes[0].speed! - 5.5 * 1852 / 3600) < 1e-9)
        #expect(fixes[1].track == nil && fixes[1].magneticTrack == nil)
        #expect(fixes[2].track == nil)
    }

    @Test func gsvSpanningFourPartsAndSeveralConstellationsMakesOneSky() throws {
        var gsv: [String] = []
        for part in 1...4 {
            let sats = (0..<(part == 4 ? 1 : 4)).map { k -> String in
                let prn = (part - 1) * 4 + k + 1
                return "\(prn < 10 ? "0" : "")\(prn),45,100,40"
            }
            gsv.append("GPGSV,4,\(part),13," + sats.joined(separator: ","))
        }
        let (_, skies) = Self.decode(
            ["GPGSA,A,3,01,02,03,04,,,,,,,,,2.0,1.0,1.7"] + gsv + [
                "GLGSV,1,1,02,65,10,020,30,01,20,040,",
                "GAGSV,1,1,01,05,30,060,33",
                "GBGSV,1,1,01,12,50,200,41",
                "GPRMC,000001,A,4807.038,N,01131.000,E,,,230326,,",
            ])
        let sky = try #require(skies.first)
        #expect(skies.count == 1)
        // GLONASS 01 and 65 are the same satellite, listed twice as gpsd 3.22 lists it: 13 GPS, 2 GLONASS entries,
        // 1 Galileo, 1 BeiDou.
        #expect(sky.satellitesInView == 17)
        #expect(sky.satellitesUsed == 4)
        #expect(sky.pdop == 2.0 && sky.hdop == 1.0 && sky.vdop == 1.7)
        #expect(sky.satellites.filter { $0.gnssID == 6 }.map(\.prn) == [65, 65])
        #expect(sky.satellites.contains { $0.prn == 305 && $0.gnssID == 2 && $0.svID == 5 })
        #expect(sky.satellites.contains { $0.prn == 412 && $0.gnssID == 3 && $0.svID == 12 })
    }

    @Test func zdaYearSetsTheCenturyForRMC() {
        let (fixes, _) = Self.decode([
            "GPZDA,235959,31,12,2099,00,00",
            "GPRMC,235959,A,4807.038,N,01131.000,E,,,311299,,",
            "GPRMC,000000,A,4807.038,N,01131.000,E,,,010100,,",
            "GPRMC,000001,A,4807.038,N,01131.000,E,,,010100,,",
        ])
        #expect(
            fixes.map { $0.time?.iso8601 ?? "" } == [
                "2099-12-31T23:59:59.000Z", "2100-01-01T00:00:00.000Z", "2100-01-01T00:00:01.000Z",
            ])
    }

    @Test func twoDigitYearsWithoutZDAFollowTheGPSEra() {
        let (fixes, _) = Self.decode([
            "GPRMC,120000,A,4807.038,N,01131.000,E,,,230394,,",
            "GPRMC,120001,A,4807.038,N,01131.000,E,,,230379,,",
        ])
        #expect(
            fixes.map { $0.time?.iso8601 ?? "" } == [
                "1994-03-23T12:00:00.000Z", "2079-03-23T12:00:01.000Z",
            ])
    }

    @Test func mergesOneCycleIntoOneFixOnceTheEnderIsLearned() {
        var bodies: [String] = []
        for s in 0..<5 {
            bodies += [
                "GPRMC,12000\(s),A,4807.038,N,01131.000,E,1.0,90.0,230326,,",
                "GPGGA,12000\(s),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                "GPGSA,A,3,01,02,03,04,,,,,,,,,2.0,1.0,1.7",
            ]
        }
        let (fixes, _) = Self.decode(bodies)
        #expect(fixes.count == 5)
        #expect(fixes.allSatisfy { $0.mode == .threeD && $0.speed != nil && $0.altitudeMSL != nil })
    }

    /// Cycles of a chartplotter: GGA, a heading (HDG, not decoded), RMC, a VTG that disagrees with the RMC, and
    /// optionally a GLL stamped with the cycle's time that arrives last, just before the next cycle's GGA.
    static func chartplotter(depth: Bool, trailingGLL: Bool) -> [String] {
        var bodies = depth ? ["SDDBT,18.0,f,5.4,M,3.0,F"] : []
        for s in 0..<4 {
            bodies += [
                "GPGGA,12000\(s),4807.0\(s)0,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                "SDHDG,101.5,,,1.3,E",
                "GPRMC,12000\(s),A,4807.0\(s)2,N,01131.000,E,10.0,90.0,230326,,",
                "GPVTG,100.0,T,,M,12.0,N,,K",
            ]
            if trailingGLL { bodies.append("GPGLL,4807.0\(s)4,N,01131.000,E,12000\(s),A,A") }
        }
        return bodies
    }

    /// gpsd 3.22 (checked with gpsdecode): once a DBT has been seen it reports after every sentence without a time
    /// and never at GGA/RMC/GLL, so a cycle's last report carries the VTG that follows the RMC and leaves out a GLL
    /// of the same time that comes after the last untimestamped sentence. We report at the same sentences when the
    /// cycle changed: at the HDG (the GGA so far) and at the VTG, as gpsd, the last one as gpsd's last. Without DBT
    /// it reports at the ender.
    @Test func afterADepthSentenceACycleIsReportedAsOfItsLastSentenceWithoutATime() {
        func laterCycles(depth: Bool, trailingGLL: Bool) -> [Fix] {
            Self.decode(Self.chartplotter(depth: depth, trailingGLL: trailingGLL)).fixes.filter {
                ($0.time?.iso8601 ?? "") >= "2026-03-23T12:00:01"
            }
        }
        let knots = 1852.0 / 3600
        for trailingGLL in [false, true] {
            let reports = laterCycles(depth: true, trailingGLL: trailingGLL)
            #expect(reports.count == 6)
            // The first report of each cycle, at the HDG, has the GGA's position.
            for (k, fix) in reports.enumerated() where k % 2 == 0 {
                #expect(abs(fix.latitude! - (48 + (7 + Double(k / 2 + 1) * 0.01) / 60)) < 1e-9)
            }
            let fixes = reports.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            #expect(Set(fixes.map(\.time)).count == 3)
            for (k, fix) in fixes.enumerated() {
                // The RMC's position (not the trailing GLL's), the VTG's speed and track (not the RMC's), and the
                // altitude of the GGA earlier in the cycle.
                #expect(abs(fix.latitude! - (48 + (7 + Double(k + 1) * 0.01 + 0.002) / 60)) < 1e-9)
                #expect(abs(fix.speed! - 12 * knots) < 1e-9 && fix.track == 100)
                #expect(fix.mode == .threeD && fix.altitudeMSL == 545.4)
            }
        }
        // Without the depth sentence the learned ender (GLL) reports the whole cycle, the GLL's position included.
        let plain = laterCycles(depth: false, trailingGLL: true)
        #expect(plain.count == 3)
        #expect(abs(plain[2].latitude! - (48 + 7.034 / 60)) < 1e-9 && abs(plain[2].speed! - 12 * knots) < 1e-9)
    }
}
