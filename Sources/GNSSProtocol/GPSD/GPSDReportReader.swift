/// The one-pass reader of gpsd's TPV and SKY lines: it decodes the bytes straight into a ``Fix`` or a
/// ``SkyView``, matching member names on bytes and converting numbers without building a `String`.
///
/// It reads lines as gpsd writes them, and gives up (`nil`) on anything else: another class, or `class` not first;
/// an escape, a control character or a byte above 0x7F in a string; `null`; a member of the wrong type or out of
/// range; a member name repeated in an object (the general reader refuses those lines); a number of more than 15
/// significant digits or an exponent past 22; an object, or arrays nested deeper than 8, in a member it skips. ``GPSDMessage/init(line:)`` then reads the line again with
/// the general JSON reader, which decides and words every error. What this reader returns is therefore what the
/// general reader returns for the same line; `GPSDReportReaderTests` and the gpsd fuzz target check it.
struct GPSDReportReader {
    /// Set when a member list did not end as JSON requires, so that `nextMember()` can end the loop with `nil`.
    private var failed = false
    /// The range of the name `nextMember()` read last.
    private var lastKey = 0..<0
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// `line` as a TPV or SKY message, or `nil` when the general reader must decide.
    static func message(_ line: UnsafeBufferPointer<UInt8>) -> GPSDMessage? {
        // The line must end with `}` (then whitespace) for the reader to take it; checked first, it lets the
        // scanning of numbers and names read on without checking the end (see ``number()``).
        var last = line.count
        trailing: while last > 0 {
            switch line[last - 1] {
            case 0x20, 0x09, 0x0A, 0x0D: last -= 1
            default: break trailing
            }
        }
        guard last > 0, line[last - 1] == UInt8(ascii: "}") else { return nil }
        var reader = GPSDReportReader(line)
        guard reader.take(UInt8(ascii: "{")), reader.member()?.name == .class,
            let className = reader.string()
        else { return nil }
        let message: GPSDMessage?
        switch Name(className, in: line) {
        case .tpv: message = reader.fixMembers().map { .tpv($0) }
        case .sky: message = reader.skyMembers().map { .sky($0) }
        default: return nil
        }
        reader.skipWhitespace()
        return reader.position == line.count ? message : nil
    }

    // MARK: Reports

    /// The members of a TPV after `class`, through the closing brace.
    private mutating func fixMembers() -> Fix? {
        var fix = Fix()
        var mode: FixMode?
        var deprecatedAltitude: Double?
        var seen = Name.Set.afterClass
        while let name = nextMember() {
            guard seen.insert(name, at: lastKey, in: bytes) else { return nil }
            switch name {
            case .mode:
                guard let number = integer(), let value = FixMode(rawValue: number) else { return nil }
                mode = value
            case .time:
                guard let time = time() else { return nil }
                fix.time = time
            case .device:
                guard let device = text() else { return nil }
                fix.device = device
            case .lat:
                guard let value = number(), (-90...90).contains(value) else { return nil }
                fix.latitude = value
            case .lon:
                guard let value = number(), (-180...180).contains(value) else { return nil }
                fix.longitude = value
            case .altHAE:
                guard let value = number() else { return nil }
                fix.altitudeHAE = value
            case .altMSL:
                guard let value = number() else { return nil }
                fix.altitudeMSL = value
            case .alt:
                guard let value = number() else { return nil }
                deprecatedAltitude = value
            case .geoidSep:
                guard let value = number() else { return nil }
                fix.geoidSeparation = value
            case .speed:
                guard let value = number() else { return nil }
                fix.speed = value
            case .track:
                guard let value = number() else { return nil }
                fix.track = value
            case .magtrack:
                guard let value = number() else { return nil }
                fix.magneticTrack = value
            case .magvar:
                guard let value = number() else { return nil }
                fix.magneticVariation = value
            case .climb:
                guard let value = number() else { return nil }
                fix.climb = value
            case .status:
                guard let value = integer() else { return nil }
                fix.status = value
            case .eph:
                guard let value = number() else { return nil }
                fix.eph = value
            case .epv:
                guard let value = number() else { return nil }
                fix.epv = value
            case .epx:
                guard let value = number() else { return nil }
                fix.epx = value
            case .epy:
                guard let value = number() else { return nil }
                fix.epy = value
            case .eps:
                guard let value = number() else { return nil }
                fix.eps = value
            case .epc:
                guard let value = number() else { return nil }
                fix.epc = value
            case .epd:
                guard let value = number() else { return nil }
                fix.epd = value
            case .ept:
                guard let value = number() else { return nil }
                fix.ept = value
            case .sep:
                guard let value = number() else { return nil }
                fix.sep = value
            case .velN:
                guard let value = number() else { return nil }
                fix.velocityNorth = value
            case .velE:
                guard let value = number() else { return nil }
                fix.velocityEast = value
            case .velD:
                guard let value = number() else { return nil }
                fix.velocityDown = value
            case .depth:
                guard let value = number() else { return nil }
                fix.depth = value
            case .dgpsAge:
                guard let value = number() else { return nil }
                fix.dgpsAge = value
            case .dgpsSta:
                guard let value = integer() else { return nil }
                fix.dgpsStation = value
            case .leapseconds:
                guard let value = integer() else { return nil }
                fix.leapSeconds = value
            default: guard skipValue(depth: 0) else { return nil }
            }
        }
        guard !failed, let mode else { return nil }
        fix.mode = mode
        if fix.altitudeMSL == nil { fix.altitudeMSL = deprecatedAltitude }
        return fix
    }

    /// The members of a SKY after `class`, through the closing brace.
    private mutating func skyMembers() -> SkyView? {
        var sky = SkyView()
        var seen = Name.Set.afterClass
        var satellitesHint = 0
        while let name = nextMember() {
            guard seen.insert(name, at: lastKey, in: bytes) else { return nil }
            switch name {
            case .time:
                guard let time = time() else { return nil }
                sky.time = time
            case .device:
                guard let device = text() else { return nil }
                sky.device = device
            case .hdop:
                guard let value = number() else { return nil }
                sky.hdop = value
            case .vdop:
                guard let value = number() else { return nil }
                sky.vdop = value
            case .pdop:
                guard let value = number() else { return nil }
                sky.pdop = value
            case .tdop:
                guard let value = number() else { return nil }
                sky.tdop = value
            case .gdop:
                guard let value = number() else { return nil }
                sky.gdop = value
            case .xdop:
                guard let value = number() else { return nil }
                sky.xdop = value
            case .ydop:
                guard let value = number() else { return nil }
                sky.ydop = value
            case .nSat:
                // Not decoded, but gpsd writes it before the satellites: it sizes their array.
                guard let value = number() else { return nil }
                if value >= 0, value <= 256 { satellitesHint = Int(value) }
            case .satellites:
                guard let satellites = satellites(capacity: satellitesHint) else { return nil }
                sky.satellites = satellites
            default: guard skipValue(depth: 0) else { return nil }
            }
        }
        return failed ? nil : sky
    }

    /// The satellites array of a SKY.
    private mutating func satellites(capacity: Int) -> [Satellite]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var satellites: [Satellite] = []
        satellites.reserveCapacity(capacity)
        if take(UInt8(ascii: "]")) { return satellites }
        repeat {
            guard take(UInt8(ascii: "{")), let satellite = satellite() else { return nil }
            satellites.append(satellite)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? satellites : nil
    }

    /// One satellite object after its opening brace, through the closing one.
    private mutating func satellite() -> Satellite? {
        var satellite = Satellite(prn: 0)
        var prn: Int?
        var seen = Name.Set()
        if !take(UInt8(ascii: "}")) {
            repeat {
                guard let (name, key) = member(), seen.insert(name, at: key, in: bytes) else { return nil }
                switch name {
                case .prn:
                    guard let value = integer() else { return nil }
                    prn = value
                case .gnssid:
                    guard let value = integer() else { return nil }
                    satellite.gnssID = value
                case .svid:
                    guard let value = integer() else { return nil }
                    satellite.svID = value
                case .el:
                    guard let value = number() else { return nil }
                    satellite.elevation = value
                case .az:
                    guard let value = number() else { return nil }
                    satellite.azimuth = value
                case .ss:
                    guard let value = number() else { return nil }
                    satellite.signalStrength = value
                case .used:
                    guard let value = boolean() else { return nil }
                    satellite.used = value
                case .sigid:
                    guard let value = integer() else { return nil }
                    satellite.signalID = value
                default: guard skipValue(depth: 1) else { return nil }
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        guard let prn else { return nil }
        satellite.prn = prn
        return satellite
    }

    /// The name of the next member of the report object, with the reader on its value; `nil` at the closing brace
    /// (or, with `failed` set, at anything else).
    private mutating func nextMember() -> Name? {
        if take(UInt8(ascii: "}")) { return nil }
        guard take(UInt8(ascii: ",")), let (name, key) = member() else {
            failed = true
            return nil
        }
        lastKey = key
        return name
    }
}
