/// Maps NMEA satellite numbers to gpsd's PRN, `gnssid` and `svid` numbering.
///
/// gpsd's numbering (SKY `PRN`): GPS 1–32, SBAS 33–64 and 120–158, GLONASS 65–96, QZSS 193–202, Galileo 301–336,
/// BeiDou 401–463. NavIC, which gpsd 3.22 drops, is numbered 501–514 here with gnssid 7.
enum NMEASatelliteNumbering {
    /// The constellation a talker (`GP`, `GL` ...) or an NMEA 4.10 system ID names.
    enum System: UInt8, Sendable {
        /// Decide by the number's range (`GP`, `GN` and unknown talkers).
        case byRange, glonass, galileo, beidou, qzss, navic
    }

    /// The system of a two-letter talker.
    @inline(__always)
    static func system(talker a: UInt8, _ b: UInt8) -> System {
        switch (a, b) {
        case (0x47, 0x4C): .glonass  // GL
        case (0x47, 0x41): .galileo  // GA
        case (0x47, 0x42), (0x42, 0x44): .beidou  // GB, BD
        case (0x47, 0x51), (0x51, 0x5A): .qzss  // GQ, QZ
        case (0x47, 0x49): .navic  // GI
        default: .byRange
        }
    }

    /// The system of an NMEA 4.10 GSA/GSV system ID (1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, 5 QZSS, 6 NavIC).
    static func system(id: Int) -> System? {
        switch id {
        case 1: .byRange
        case 2: .glonass
        case 3: .galileo
        case 4: .beidou
        case 5: .qzss
        case 6: .navic
        default: nil
        }
    }

    /// gpsd's (PRN, gnssid, svid) for satellite `number` reported under `system`, or `nil` for an unusable number.
    @inline(__always)
    static func identify(_ number: Int, system: System) -> (prn: Int, gnssID: Int, svID: Int)? {
        guard number > 0 else { return nil }
        switch system {
        case .glonass:
            if number <= 32 { return (64 + number, 6, number) }
            if (65...96).contains(number) { return (number, 6, number - 64) }
            return nil
        case .galileo:
            if number <= 36 { return (300 + number, 2, number) }
            if (301...336).contains(number) { return (number, 2, number - 300) }
            return nil
        case .beidou:
            if number <= 63 { return (400 + number, 3, number) }
            if (401...463).contains(number) { return (number, 3, number - 400) }
            return nil
        case .qzss:
            if number <= 10 { return (192 + number, 5, number) }
            if (193...202).contains(number) { return (number, 5, number - 192) }
            return nil
        case .navic:
            if number <= 14 { return (500 + number, 7, number) }
            return nil
        case .byRange:
            switch number {
            case 1...32: return (number, 0, number)
            case 33...64: return (number, 1, number + 87)
            case 65...96: return (number, 6, number - 64)
            case 120...158: return (number, 1, number)
            case 193...202: return (number, 5, number - 192)
            case 301...336: return (number, 2, number - 300)
            case 401...463: return (number, 3, number - 400)
            default: return nil
            }
        }
    }
}
