/// The NMEA 0183 sentence types the decoder understands, recognised by the three letters after the talker.
enum NMEASentenceType: UInt8, Sendable, CaseIterable {
    case gga, rmc, gll, gns, gsa, gsv, vtg, zda, gbs, hdg, gst, hdt
    /// SiRF's proprietary `$PSRFEPE`, which `from` never returns: the decoder recognises it by its whole name.
    case psrfepe
    /// SkyTraq's proprietary `$PSTI,030`, recognised by the decoder like `psrfepe`.
    case psti030

    /// The type named by three ASCII letters, or `nil` for any other sentence.
    @inline(__always)
    static func from(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> NMEASentenceType? {
        switch (a, b, c) {
        case (0x47, 0x47, 0x41): .gga  // GGA
        case (0x52, 0x4D, 0x43): .rmc  // RMC
        case (0x47, 0x4C, 0x4C): .gll  // GLL
        case (0x47, 0x4E, 0x53): .gns  // GNS
        case (0x47, 0x53, 0x41): .gsa  // GSA
        case (0x47, 0x53, 0x56): .gsv  // GSV
        case (0x56, 0x54, 0x47): .vtg  // VTG
        case (0x5A, 0x44, 0x41): .zda  // ZDA
        case (0x47, 0x42, 0x53): .gbs  // GBS
        case (0x48, 0x44, 0x47): .hdg  // HDG
        case (0x47, 0x53, 0x54): .gst  // GST
        case (0x48, 0x44, 0x54): .hdt  // HDT
        default: nil
        }
    }

    /// The field that holds the sentence's `hhmmss[.sss]` time of day, for the types that mark cycles with it.
    var timeField: Int? {
        switch self {
        case .gga, .rmc, .gns, .gbs, .psrfepe: 1
        case .psti030: 2
        case .gll: 5
        case .gsa, .gsv, .vtg, .zda, .hdg, .gst, .hdt: nil
        }
    }

    /// A bit for sets of sentence types.
    var bit: UInt16 { 1 << UInt16(rawValue) }
}
