import GNSSProtocol
import Testing

/// The day a time of day falls on, as gpsd 3.22's `merge_hhmmss` decides it.
@Suite(.hangBound) struct NMEAClockTests {
    /// gpsd's `bt451.log` (its lines 96–121) joins two recordings: a receiver standing still at 15:25:08, then one in a car at 14:33:06
    /// the same date. gpsd takes the hour going down for midnight: the first fix after the join is on the next day,
    /// 83,278 s after the last, so it has a speed, a climb and a track error from the two positions (gpsdecode:
    /// `"speed":0.023,"climb":0.001,"epd":2.1286`), until the RMC after it sets the date again.
    @Test func anHourGoingDownIsTheNextDay() throws {
        let lines = [
            "$GPRMC,152508.00,A,5547.82150,N,02334.14092,E,0.309,,091209,,,A*77",
            "$GPVTG,,T,,M,0.309,N,0.573,K,A*28",
            "$GPGGA,152508.00,5547.82150,N,02334.14092,E,1,04,2.72,35.5,M,26.9,M,,*6F",
            "$GPGSA,A,3,26,32,11,14,,,,,,,,,6.24,2.72,5.62*04",
            "$GPGSV,2,1,07,26,34,052,33,19,,,36,32,45,237,41,06,,,33*71",
            "$GPGSV,2,2,07,22,,,39,11,57,277,40,14,51,083,38*71",
            "$GPGLL,5547.82150,N,02334.14092,E,152508.00,A,A*67",
            "$GPZDA,152508.00,09,12,2009,00,00*6C",
            "$GPRMC,152508.50,A,5547.82156,N,02334.14086,E,0.296,,091209,,,A*76",
            "$GPVTG,,T,,M,0.296,N,0.549,K,A*26",
            "$GPGGA,152508.50,5547.82156,N,02334.14086,E,1,04,2.73,35.3,M,26.9,M,,*6E",
            "$GPGSA,A,3,26,32,11,14,,,,,,,,,6.24,2.73,5.62*05",
            "$GPGSV,3,1,11,26,34,052,32,19,,,34,20,,,29,32,45,237,39*74",
            "$GPGSV,3,2,11,02,,,26,06,,,31,18,,,30,24,,,27*73",
            "$GPGSV,3,3,11,22,,,37,11,57,277,38,14,51,083,36*79",
            "$GPGGA,143306.00,5546.83315,N,02334.72613,E,1,08,1.28,129.9,M,26.9,M,,*5B",
            "$GPGSA,A,3,09,19,11,14,03,22,06,26,,,,,3.65,1.28,3.41*0A",
            "$GPGSV,3,1,10,32,22,227,34,09,12,038,29,19,58,204,39,11,36,285,35*74",
            "$GPGSV,3,2,10,14,45,118,34,03,31,183,30,28,,,32,22,47,070,42*43",
            "$GPGSV,3,3,10,06,26,174,32,26,44,080,38*7E",
            "$GPGLL,5546.83315,N,02334.72613,E,143306.00,A,A*63",
            "$GPZDA,143306.00,09,12,2009,00,00*64",
            "$GPRMC,143306.50,A,5546.82983,N,02334.72123,E,30.324,221.16,091209,,,A*52",
            "$GPVTG,221.16,T,,M,30.324,N,56.191,K,A*37",
            "$GPGGA,143306.50,5546.82983,N,02334.72123,E,1,09,1.26,128.9,M,26.9,M,,*50",
        ]
        var decoder = NMEADecoder(device: "bt451", weekRollover: .asSent)
        var fixes: [Fix] = []
        let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
        decoder.feed(bytes) { if case .fix(let f) = $0 { fixes.append(f) } }
        decoder.finish { if case .fix(let f) = $0 { fixes.append(f) } }
        let times = fixes.compactMap { $0.time?.millisecondsSince1970 }
        let day: Int64 = 86_400_000
        let ninthOfDecember = Int64(14_587) * day
        #expect(times.first == ninthOfDecember + (15 * 3_600 + 25 * 60 + 8) * 1_000)
        let joined = try #require(fixes.first { $0.time?.millisecondsSince1970 == ninthOfDecember + day + 52_386_000 })
        #expect(joined.speed.map { ($0 * 1_000).rounded() } == 23)
        #expect(joined.climb.map { ($0 * 1_000).rounded() } == 1)
        #expect(joined.epd.map { ($0 * 10_000).rounded() } == 21_286)
        #expect(fixes.last?.time?.millisecondsSince1970 == ninthOfDecember + 52_386_500)
    }
}
