/// Maps NMEA satellite numbers to gpsd 3.22's PRN, `gnssid` and `svid` numbering (`nmeaid_to_prn` in
/// `driver_nmea0183.c`), quirks included.
///
/// gpsd's numbering (SKY `PRN`): GPS 1–32, SBAS 33–64 and 120–158, GLONASS 65–96, IMES 173–182, QZSS 193–197,
/// Galileo 301–356, BeiDou 401–437; SkyTraq's and SiRF's BeiDou 201–237 become 401–437. NavIC (`GI`), which
/// gpsd 3.22's lexer drops, is numbered 501 and up here with gnssid 7, as that function numbers it.
enum NMEASatelliteNumbering {
    /// The NMEA 4.10 system ID gpsd takes from a GSA's, or a GSV series' first part's, talker: only the talker's
    /// second letter counts (`A` Galileo 3, `B`/`D` BeiDou 4, `I` NavIC 6, `L` GLONASS 2, `Q`/`Z` QZSS 5), 0 for the
    /// others (`GP`, `GN`), which leave the number and the talker to decide.
    @inline(__always)
    static func systemID(talker b: UInt8) -> Int {
        switch b {
        case 0x41: 3  // A
        case 0x42, 0x44: 4  // B, D
        case 0x49: 6  // I
        case 0x4C: 2  // L
        case 0x51, 0x5A: 5  // Q, Z
        default: 0
        }
    }

    /// gpsd's (PRN, gnssid, svid) for satellite `number` under talker `a b` and NMEA system ID `system` (0: none
    /// known); PRN 0 is a number gpsd cannot place: it keeps the satellite's place in the view but reports it nowhere.
    static func identify(_ number: Int, talker a: UInt8, _ b: UInt8, system: Int) -> (prn: Int, gnssID: Int, svID: Int)
    {
        guard number > 0 else { return (0, 0, 0) }
        if system > 0 { return identify(number, system: system) }
        if number <= 32 { return identify(number, talker: a, b) }
        return identify(byRange: number)
    }

    /// `nmeaid_to_prn` where the system ID is known (2–6: gpsd 3.22 takes it from the talker, never 1 for GPS).
    private static func identify(_ n: Int, system: Int) -> (prn: Int, gnssID: Int, svID: Int) {
        switch system {
        case 2:
            let sv = n < 64 ? n : n - 64
            return (64 + sv, 6, sv)
        case 3:
            let sv = n < 100 ? n : n - 100
            return (300 + sv, 2, sv)
        case 4:
            let sv = n < 100 ? n : n - 200
            return (400 + sv, 3, sv)
        case 5:
            let sv = n < 100 ? n : n - 192
            return (192 + sv, 5, sv)
        case 6:
            return (n + 500, 7, n)
        default:
            return (0, 0, 0)
        }
    }

    /// `nmeaid_to_prn` for numbers 1–32 without a system ID: the talker decides.
    private static func identify(_ n: Int, talker a: UInt8, _ b: UInt8) -> (prn: Int, gnssID: Int, svID: Int) {
        switch (a, b) {
        case (0x47, 0x41): (300 + n, 2, n)  // GA Galileo
        case (0x47, 0x42), (0x42, 0x44), (0x50, 0x51): (400 + n, 3, n)  // GB, BD, PQ (Quectel) BeiDou
        case (0x47, 0x49): (500 + n, 7, n)  // GI NavIC
        case (0x47, 0x4C): (64 + n, 6, n)  // GL GLONASS
        case (0x47, 0x51), (0x51, 0x5A): (192 + n, 5, n)  // GQ, QZ QZSS
        default: (n, 0, n)  // GP, GN and the rest: GPS
        }
    }

    /// `nmeaid_to_prn` for numbers above 32 without a system ID: the number's range decides, whatever the talker.
    private static func identify(byRange n: Int) -> (prn: Int, gnssID: Int, svID: Int) {
        switch n {
        case ...64: (n, 1, n + 87)  // SBAS
        case ...96: (n, 6, n - 64)  // GLONASS
        case ...119: (0, 0, 0)
        case ...158: (n, 1, n)  // SBAS
        case ...172: (0, 0, 0)
        case ...182: (n, 4, n - 172)  // IMES
        case ...192: (0, 0, 0)
        case ...197: (n, 5, n - 192)  // QZSS
        case ...200: (0, 0, 0)
        case ...237: (n + 200, 3, n - 200)  // BeiDou as SkyTraq and SiRF number it
        case ...300: (0, 0, 0)
        case ...356: (n, 2, n - 300)  // Galileo
        case ...400: (0, 0, 0)
        case ...437: (n, 3, n - 400)  // BeiDou
        default: (0, 0, 0)
        }
    }
}
