/// One satellite in view, with gpsd's SKY `satellites` fields.
public struct Satellite: Sendable, Hashable {
    /// gpsd's PRN: the NMEA satellite number (SKY `PRN`).
    public var prn: Int
    /// The constellation, numbered as gpsd's `gnssid` (0 GPS, 1 SBAS, 2 Galileo, 3 BeiDou, 5 QZSS, 6 GLONASS,
    /// 7 NavIC), when known.
    public var gnssID: Int?
    /// The satellite number within its constellation (SKY `svid`), when known.
    public var svID: Int?
    /// Elevation in degrees (SKY `el`).
    public var elevation: Double?
    /// Azimuth in degrees from true north (SKY `az`).
    public var azimuth: Double?
    /// Signal strength in dB-Hz (SKY `ss`).
    public var signalStrength: Double?
    /// Whether the satellite is used in the current solution (SKY `used`).
    public var used: Bool
    /// The signal, numbered as gpsd's `sigid` (u-blox numbering: 0 for GPS L1 C/A), when an NMEA 4.10 GSV names
    /// one other than the first.
    public var signalID: Int?

    /// Creates a satellite entry.
    public init(
        prn: Int, gnssID: Int? = nil, svID: Int? = nil, elevation: Double? = nil, azimuth: Double? = nil,
        signalStrength: Double? = nil, used: Bool = false, signalID: Int? = nil
    ) {
        self.prn = prn
        self.gnssID = gnssID
        self.svID = svID
        self.elevation = elevation
        self.azimuth = azimuth
        self.signalStrength = signalStrength
        self.used = used
        self.signalID = signalID
    }
}
