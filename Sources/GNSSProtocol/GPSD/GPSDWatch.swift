/// gpsd's WATCH reply: the streaming policy now in force for this connection.
public struct GPSDWatch: Sendable, Hashable {
    /// Whether streaming is on (WATCH `enable`).
    public var enable: Bool?
    /// Whether reports stream as JSON (WATCH `json`).
    public var json: Bool?
    /// Whether raw NMEA streams (WATCH `nmea`).
    public var nmea: Bool?
    /// The raw-data level, 0 to 2 (WATCH `raw`).
    public var raw: Int?
    /// Whether binary-protocol values are scaled (WATCH `scaled`).
    public var scaled: Bool?
    /// Whether timing information is added (WATCH `timing`).
    public var timing: Bool?
    /// Whether AIS type 24 halves are reported separately (WATCH `split24`).
    public var split24: Bool?
    /// Whether PPS reports stream (WATCH `pps`).
    public var pps: Bool?
    /// The one device watched, when restricted (WATCH `device`).
    public var device: String?

    /// Creates a policy.
    public init(enable: Bool? = nil, json: Bool? = nil, device: String? = nil) {
        self.enable = enable
        self.json = json
        self.device = device
    }

    init(_ f: GPSDFields) throws(GPSDDecodingError) {
        enable = try f.bool("enable")
        json = try f.bool("json")
        nmea = try f.bool("nmea")
        raw = try f.int("raw")
        scaled = try f.bool("scaled")
        timing = try f.bool("timing")
        split24 = try f.bool("split24")
        pps = try f.bool("pps")
        device = try f.string("device")
    }
}
