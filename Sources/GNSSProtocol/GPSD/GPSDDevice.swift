/// A device gpsd reads from (DEVICE, and each element of DEVICES).
public struct GPSDDevice: Sendable, Hashable {
    /// Whether gpsd is using the device.
    public enum Activation: Sendable, Hashable {
        /// Active since the given time (DEVICE `activated` as an ISO 8601 string, or as seconds since 1970 in old
        /// gpsd releases).
        case active(since: GNSSTime)
        /// Gone or closed (DEVICE `"activated":0`).
        case inactive
    }

    /// The device's path, for example `/dev/ttyUSB0` (DEVICE `path`).
    public var path: String
    /// The driver gpsd chose, for example `NMEA0183` (DEVICE `driver`), once it knows.
    public var driver: String?
    /// The receiver's self-description, when it gave one (DEVICE `subtype`).
    public var subtype: String?
    /// Whether and since when the device is active (DEVICE `activated`), when reported.
    public var activation: Activation?
    /// Serial speed in bits per second (DEVICE `bps`).
    public var bitsPerSecond: Int?
    /// Serial parity, `"N"`, `"O"` or `"E"` (DEVICE `parity`).
    public var parity: String?
    /// Serial stop bits (DEVICE `stopbits`).
    public var stopBits: Int?
    /// 0 when the device speaks NMEA, 1 when it speaks its native binary protocol (DEVICE `native`).
    public var native: Int?
    /// The receiver's reporting cycle in seconds (DEVICE `cycle`).
    public var cycle: Double?

    /// Creates a device description.
    public init(path: String, driver: String? = nil, activation: Activation? = nil) {
        self.path = path
        self.driver = driver
        self.activation = activation
    }

    init(_ f: GPSDFields) throws(GPSDDecodingError) {
        path = try f.required("path", f.string)
        driver = try f.string("driver")
        subtype = try f.string("subtype")
        switch f.value("activated") {
        case nil: activation = nil
        case .string(let text)?:
            guard let time = GNSSTime(iso8601: text) else {
                throw f.invalid("activated", "\"\(text)\" is not an ISO 8601 UTC time")
            }
            activation = .active(since: time)
        case .number(let seconds)?:
            guard seconds >= 0, seconds < 1e12 else { throw f.invalid("activated", "\(seconds) is not a time") }
            activation =
                seconds == 0 ? .inactive : .active(since: GNSSTime(millisecondsSince1970: Int64(seconds * 1_000)))
        case let other?:
            throw f.wrongType("activated", "a time string or a number", other)
        }
        bitsPerSecond = try f.int("bps")
        parity = try f.string("parity")
        stopBits = try f.int("stopbits")
        native = try f.int("native")
        cycle = try f.double("cycle")
    }
}
