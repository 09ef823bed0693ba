import GNSSProtocol

/// Synthetic NMEA 0183 input: a 1 Hz receiver's cycles, one fix each.
///
/// Each cycle is RMC, VTG, GGA, GSA, three GSV and GLL (8 sentences, valid checksums), with the time advancing
/// one second per cycle; the mix of a typical GPS-only receiver.
enum NMEAInput {
    /// Sentences per cycle.
    static let sentencesPerCycle = 8

    /// The bytes of `cycles` consecutive cycles, and where each cycle starts (plus the end).
    static func cycles(_ cycles: Int) -> (bytes: [UInt8], starts: [Int]) {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        for cycle in 0..<cycles {
            starts.append(bytes.count)
            bytes += Array(text(ofCycle: cycle).utf8)
        }
        starts.append(bytes.count)
        return (bytes, starts)
    }

    private static func text(ofCycle cycle: Int) -> String {
        let t = cycle % 86_400
        let hms =
            String(100 + t / 3600).dropFirst() + String(100 + t / 60 % 60).dropFirst()
            + String(100 + t % 60).dropFirst()
        return line("GPRMC,\(hms).00,A,4807.038,N,01131.000,E,022.4,084.4,230326,003.1,W,A")
            + line("GPVTG,084.4,T,087.5,M,022.4,N,041.5,K,A")
            + line("GPGGA,\(hms).00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            + line("GPGSA,A,3,04,05,09,12,17,24,25,29,,,,,1.8,0.9,1.5")
            + line("GPGSV,3,1,11,04,45,100,40,05,30,200,35,09,12,300,38,12,60,010,44")
            + line("GPGSV,3,2,11,17,45,100,40,24,30,200,35,25,12,300,38,29,60,010,44")
            + line("GPGSV,3,3,11,31,05,080,20,32,70,270,45,02,10,020,30")
            + line("GPGLL,4807.038,N,01131.000,E,\(hms).00,A,A")
    }

    private static func line(_ body: String) -> String {
        NMEAChecksum.sentence(body)
    }
}
