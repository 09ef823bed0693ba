/// One position fix, with gpsd's TPV fields and units.
///
/// Every measurement is optional because receivers report them piecemeal: an absent value means "not reported",
/// never zero. Units follow gpsd's `gpsd_json(5)`: degrees for angles, metres for distances and errors, metres per
/// second for speeds, seconds for time errors.
public struct Fix: Sendable, Hashable {
    /// The kind of fix (TPV `mode`).
    public var mode: FixMode
    /// When the fix was taken, UTC (TPV `time`).
    public var time: GNSSTime?
    /// Latitude in degrees, positive north (TPV `lat`).
    public var latitude: Double?
    /// Longitude in degrees, positive east (TPV `lon`).
    public var longitude: Double?
    /// Height above the WGS84 ellipsoid in metres (TPV `altHAE`).
    public var altitudeHAE: Double?
    /// Height above mean sea level in metres (TPV `altMSL`).
    public var altitudeMSL: Double?
    /// Geoid separation, ellipsoid minus mean sea level, in metres (TPV `geoidSep`).
    public var geoidSeparation: Double?
    /// Speed over ground in metres per second (TPV `speed`).
    public var speed: Double?
    /// Course over ground in degrees from true north (TPV `track`).
    public var track: Double?
    /// Course over ground in degrees from magnetic north (TPV `magtrack`).
    public var magneticTrack: Double?
    /// Magnetic variation in degrees, positive east (TPV `magvar`).
    public var magneticVariation: Double?
    /// Vertical speed in metres per second, positive up (TPV `climb`).
    public var climb: Double?
    /// gpsd's fix status (TPV `status`: 2 DGPS, 3 RTK fixed, 4 RTK float, 5 dead reckoning, ...), when at least 2.
    public var status: Int?
    /// Estimated horizontal position error in metres, 95% confidence (TPV `eph`): the receiver's own figure, else
    /// gpsd's HDOP × 19 m (4.75 m with DGPS).
    public var eph: Double?
    /// Estimated vertical error in metres, 95% confidence (TPV `epv`): the receiver's own figure, else VDOP × 23 m
    /// (5.75 m with DGPS).
    public var epv: Double?
    /// Estimated longitude (east) error in metres, 95% confidence (TPV `epx`): XDOP × 15 m (3.75 m with DGPS).
    public var epx: Double?
    /// Estimated latitude (north) error in metres, 95% confidence (TPV `epy`): YDOP × 15 m (3.75 m with DGPS).
    public var epy: Double?
    /// Estimated speed error in metres per second, 95% confidence (TPV `eps`): this and the previous fix's larger
    /// horizontal error over the time between them.
    public var eps: Double?
    /// Estimated climb error in metres per second, 95% confidence (TPV `epc`): this and the previous fix's vertical
    /// errors over the time between them.
    public var epc: Double?
    /// Estimated track error in degrees, 95% confidence (TPV `epd`), when the position moved farther than its error.
    public var epd: Double?
    /// Estimated time error in seconds (TPV `ept`): gpsd's 0.005 s for NMEA.
    public var ept: Double?
    /// Estimated spherical (3D) position error in metres, 95% confidence (TPV `sep`): PDOP × 19 m (4.75 m with
    /// DGPS).
    public var sep: Double?
    /// North velocity in metres per second (TPV `velN`), from a receiver that reports velocity components.
    public var velocityNorth: Double?
    /// East velocity in metres per second (TPV `velE`).
    public var velocityEast: Double?
    /// Down velocity in metres per second, positive down (TPV `velD`).
    public var velocityDown: Double?
    /// Age of the differential corrections in seconds (TPV `dgpsAge`), from GGA; sent with ``dgpsStation``.
    public var dgpsAge: Double?
    /// The differential reference station's ID (TPV `dgpsSta`), from GGA; sent with ``dgpsAge``.
    public var dgpsStation: Int?
    /// Depth below the transducer in metres, from a depth sounder's DBT sentence (TPV `depth`).
    public var depth: Double?
    /// The current GPS−UTC offset in seconds (TPV `leapseconds`), in every fix once the receiver has stated it (in
    /// an NMEA stream, Garmin's `$PGRMF`), as gpsd sends it.
    public var leapSeconds: Int?
    /// The device that produced the fix, when known (TPV `device`).
    public var device: String?

    /// Creates a fix; every measurement defaults to "not reported".
    public init(
        mode: FixMode = .unknown,
        time: GNSSTime? = nil,
        latitude: Double? = nil,
        longitude: Double? = nil,
        altitudeHAE: Double? = nil,
        altitudeMSL: Double? = nil,
        geoidSeparation: Double? = nil,
        speed: Double? = nil,
        track: Double? = nil,
        climb: Double? = nil,
        device: String? = nil
    ) {
        self.mode = mode
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeHAE = altitudeHAE
        self.altitudeMSL = altitudeMSL
        self.geoidSeparation = geoidSeparation
        self.speed = speed
        self.track = track
        self.climb = climb
        self.device = device
    }

    /// The horizontal accuracy in metres, as CoreLocation names it: gpsd's `eph`, a 95% radius (CoreLocation's is
    /// a 68% one).
    public var horizontalAccuracy: Double? { eph }
    /// The vertical accuracy in metres, as CoreLocation names it: gpsd's `epv`, at 95% confidence.
    public var verticalAccuracy: Double? { epv }
}

extension Fix {
    /// Makes this `Fix(device: device)` in place, keeping `device`: every measurement cleared, without building a
    /// new `Fix` and copying it over this one, nor retaining and releasing the device name (the NMEA decoder does
    /// this at every new cycle).
    mutating func clearMeasurements() {
        mode = .unknown
        time = nil
        latitude = nil
        longitude = nil
        altitudeHAE = nil
        altitudeMSL = nil
        geoidSeparation = nil
        speed = nil
        track = nil
        magneticTrack = nil
        magneticVariation = nil
        climb = nil
        status = nil
        eph = nil
        epv = nil
        epx = nil
        epy = nil
        eps = nil
        epc = nil
        epd = nil
        ept = nil
        sep = nil
        depth = nil
        velocityNorth = nil
        velocityEast = nil
        velocityDown = nil
        dgpsAge = nil
        dgpsStation = nil
        leapSeconds = nil
        assert(self == Fix(device: device), "Fix.clearMeasurements() misses a stored property")
    }
}
