/// One line of gpsd's JSON output, decoded.
///
/// Decode with ``init(line:)-(String)``, or the same from the line's bytes. Classes this client does not use (GST, TOFF, PPS, ATT, POLL, AIS, …) decode as
/// ``other(className:)`` rather than failing, so a newer gpsd cannot break the stream.
public enum GPSDMessage: Sendable, Hashable {
    /// The banner gpsd sends on connect (class VERSION).
    case version(GPSDVersion)
    /// The devices gpsd knows (class DEVICES).
    case devices([GPSDDevice])
    /// A device appeared, changed or went away (class DEVICE).
    case device(GPSDDevice)
    /// The streaming policy now in force (class WATCH).
    case watch(GPSDWatch)
    /// A time-position-velocity report (class TPV).
    case tpv(Fix)
    /// A sky view: satellites and dilutions of precision (class SKY).
    case sky(SkyView)
    /// gpsd refused a request (class ERROR); carries its message.
    case error(message: String)
    /// Any other class, by name.
    case other(className: String)

    /// Decodes one line (without its line terminator; surrounding whitespace is allowed).
    ///
    /// Unknown members are ignored; required members missing, members of the wrong type and values out of range
    /// throw a ``GPSDDecodingError`` that names the class and the member.
    ///
    /// TPV and SKY lines as gpsd writes them are decoded in one pass over the bytes; any other line, and any line
    /// that pass cannot vouch for, is read with the general JSON reader, which gives the same result.
    public init(line: some Collection<UInt8>) throws(GPSDDecodingError) {
        if let message = line.withContiguousStorageIfAvailable(GPSDReportReader.message) ?? nil {
            self = message
            return
        }
        try self.init(decodingWithGeneralReader: line)
    }

    /// Decodes one line given as text.
    public init(line: String) throws(GPSDDecodingError) {
        var text = line
        if let message = text.withUTF8(GPSDReportReader.message) {
            self = message
            return
        }
        try self.init(decodingWithGeneralReader: Array(line.utf8))
    }

    /// Decodes one line with the general JSON reader only: a `JSONValue` tree, then members looked up by name. The
    /// reference the one-pass reader of TPV and SKY lines is checked against.
    package init(decodingWithGeneralReader line: some Collection<UInt8>) throws(GPSDDecodingError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: line)
        } catch {
            throw .invalidJSON(error)
        }
        guard case .object(let members) = json else { throw .notAnObject(found: json.typeName) }
        guard let member = members.first(where: { $0.key == "class" }), case .string(let className) = member.value
        else { throw .missingClass }
        let f = GPSDFields(className: className, members: members)
        switch className {
        case "VERSION": self = .version(try GPSDVersion(f))
        case "DEVICES":
            var devices: [GPSDDevice] = []
            for (i, element) in (try f.array("devices") ?? []).enumerated() {
                guard case .object(let deviceMembers) = element else {
                    throw f.wrongType("devices[\(i)]", "an object", element)
                }
                devices.append(try GPSDDevice(GPSDFields(className: "DEVICES devices[\(i)]", members: deviceMembers)))
            }
            self = .devices(devices)
        case "DEVICE": self = .device(try GPSDDevice(f))
        case "WATCH": self = .watch(try GPSDWatch(f))
        case "TPV": self = .tpv(try Self.fix(f))
        case "SKY": self = .sky(try Self.skyView(f))
        case "ERROR": self = .error(message: try f.string("message") ?? "")
        default: self = .other(className: className)
        }
    }

    /// The gpsd class name of this message, for example `"TPV"`.
    public var className: String {
        switch self {
        case .version: "VERSION"
        case .devices: "DEVICES"
        case .device: "DEVICE"
        case .watch: "WATCH"
        case .tpv: "TPV"
        case .sky: "SKY"
        case .error: "ERROR"
        case .other(let name): name
        }
    }

    private static func fix(_ f: GPSDFields) throws(GPSDDecodingError) -> Fix {
        let modeNumber = try f.required("mode", f.int)
        guard let mode = FixMode(rawValue: modeNumber) else {
            throw f.invalid("mode", "\(modeNumber) is not 0, 1, 2 or 3")
        }
        var fix = Fix(mode: mode, time: try f.time("time"), device: try f.string("device"))
        fix.latitude = try f.double("lat", in: -90...90)
        fix.longitude = try f.double("lon", in: -180...180)
        fix.altitudeHAE = try f.double("altHAE")
        // `alt` is the deprecated name of altMSL; older gpsd releases send only it.
        let deprecatedAltitude = try f.double("alt")
        fix.altitudeMSL = try f.double("altMSL") ?? deprecatedAltitude
        fix.geoidSeparation = try f.double("geoidSep")
        fix.speed = try f.double("speed")
        fix.track = try f.double("track")
        fix.magneticTrack = try f.double("magtrack")
        fix.magneticVariation = try f.double("magvar")
        fix.climb = try f.double("climb")
        fix.status = try f.int("status")
        fix.eph = try f.double("eph")
        fix.epv = try f.double("epv")
        fix.epx = try f.double("epx")
        fix.epy = try f.double("epy")
        fix.eps = try f.double("eps")
        fix.epc = try f.double("epc")
        fix.epd = try f.double("epd")
        fix.ept = try f.double("ept")
        fix.sep = try f.double("sep")
        fix.velocityNorth = try f.double("velN")
        fix.velocityEast = try f.double("velE")
        fix.velocityDown = try f.double("velD")
        fix.depth = try f.double("depth")
        fix.dgpsAge = try f.double("dgpsAge")
        fix.dgpsStation = try f.int("dgpsSta")
        fix.leapSeconds = try f.int("leapseconds")
        return fix
    }

    private static func skyView(_ f: GPSDFields) throws(GPSDDecodingError) -> SkyView {
        var sky = SkyView(time: try f.time("time"), device: try f.string("device"))
        sky.hdop = try f.double("hdop")
        sky.vdop = try f.double("vdop")
        sky.pdop = try f.double("pdop")
        sky.tdop = try f.double("tdop")
        sky.gdop = try f.double("gdop")
        sky.xdop = try f.double("xdop")
        sky.ydop = try f.double("ydop")
        let elements = try f.array("satellites") ?? []
        sky.satellites.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            guard case .object(let members) = element else {
                throw f.wrongType("satellites[\(i)]", "an object", element)
            }
            let s = GPSDFields(className: "SKY satellites[\(i)]", members: members)
            sky.satellites.append(
                Satellite(
                    prn: try s.required("PRN", s.int), gnssID: try s.int("gnssid"), svID: try s.int("svid"),
                    elevation: try s.double("el"), azimuth: try s.double("az"), signalStrength: try s.double("ss"),
                    used: try s.bool("used") ?? false, signalID: try s.int("sigid")))
        }
        return sky
    }
}
