/// The satellites in view and the dilutions of precision, with gpsd's SKY fields.
public struct SkyView: Sendable, Hashable {
    /// When the view was reported, UTC (SKY `time`).
    public var time: GNSSTime?
    /// The satellites in view (SKY `satellites`).
    public var satellites: [Satellite]
    /// Horizontal dilution of precision (SKY `hdop`).
    public var hdop: Double?
    /// Vertical dilution of precision (SKY `vdop`).
    public var vdop: Double?
    /// Position (3D) dilution of precision (SKY `pdop`).
    public var pdop: Double?
    /// Time dilution of precision (SKY `tdop`).
    public var tdop: Double?
    /// Geometric dilution of precision (SKY `gdop`).
    public var gdop: Double?
    /// Longitudinal dilution of precision (SKY `xdop`).
    public var xdop: Double?
    /// Latitudinal dilution of precision (SKY `ydop`).
    public var ydop: Double?
    /// The device that reported the view, when known (SKY `device`).
    public var device: String?

    /// Creates a sky view.
    public init(
        time: GNSSTime? = nil, satellites: [Satellite] = [], hdop: Double? = nil, vdop: Double? = nil,
        pdop: Double? = nil, device: String? = nil
    ) {
        self.time = time
        self.satellites = satellites
        self.hdop = hdop
        self.vdop = vdop
        self.pdop = pdop
        self.device = device
    }

    /// The number of satellites in view (SKY `nSat`).
    public var satellitesInView: Int { satellites.count }
    /// The number of satellites used in the solution (SKY `uSat`).
    public var satellitesUsed: Int { satellites.reduce(0) { $0 + ($1.used ? 1 : 0) } }
}
