/// Collects GSV satellites and GSA "used" lists and DOPs into one ``SkyView`` per satellite-view cycle, as gpsd
/// 3.22's `processGSV` and `processGSA` do.
///
/// A view may span several talkers (GP, GL, GA, GB ...) and any number of parts. A series' first part starts the
/// view afresh when the sentence before it was not a GSV, and a `GP` first part always does (but for an NMEA 4.10
/// signal other than L1); a view completes at a series' last part, except a `GP` series once any other talker's GSV
/// was seen (gpsd waits for the GL/GB/GA series that follows it). The used list starts afresh at a GSA that follows
/// another sentence or a GSA of its own talker (`GN` excepted), so that `GPGSA` + `GLGSA` add up.
struct SkyAssembler: Sendable {
    private(set) var view = SkyView()
    /// The PRNs of the satellites used.
    private var used = PRNSet()
    /// How many used satellites were listed, repeats included (gpsd's `satellites_used`); gpsd keeps the first 256.
    private(set) var usedCount = 0
    /// The second letter of the previous sentence's talker when it was a GSV (gpsd's `last_gsv_talker`), else 0.
    private var lastGSVTalker: UInt8 = 0
    /// The same for GSA (`last_gsa_talker`).
    private var lastGSATalker: UInt8 = 0
    /// Whether a GSV series of a talker other than `GP` was ever seen (gpsd's `seen_..gsv`, never cleared).
    private var seenOtherGSV = false
    /// Whether a GSA of a talker other than `GP` was ever seen (`seen_..gsa`).
    private var seenOtherGSA = false
    private var complete = false
    /// PDOP, HDOP and VDOP of a GSA that came after the view completed and before it was reported: gpsd sent the
    /// view when its last GSV arrived, with the DOPs of that moment, so these wait for the next view.
    private var laterDOPs: (pdop: Double?, hdop: Double?, vdop: Double?)?
    /// The view's places, satellites gpsd cannot number included (gpsd's `satellites_visible`).
    private var places = 0
    /// Whether a satellite of the view has an azimuth other than 0.
    private var anyAzimuth = false

    /// An assembler whose views carry `device`.
    init(device: String? = nil) {
        view.device = device
        view.satellites.reserveCapacity(64)
    }

    /// Notes a sentence of another type; returns whether the view just completed, stamped `time`: then `view` is
    /// to be reported, lent where it stands rather than copied.
    @inline(__always)
    mutating func otherSentence(time: GNSSTime?) -> Bool {
        if laterDOPs != nil { takeLaterDOPs() }
        lastGSVTalker = 0
        lastGSATalker = 0
        return takeIfComplete(time: time)
    }

    /// Notes a sentence gpsd parses but this assembler does not report at (a proprietary or unknown one): the next
    /// GSV or GSA follows another sentence.
    mutating func forgetTalkers() {
        lastGSVTalker = 0
        lastGSATalker = 0
    }

    /// Whether GSV part `f` of talker `b` would start the view afresh.
    func startsAfresh(_ f: NMEAFields, talker b: UInt8) -> Bool {
        guard f.count > 3, f.count % 4 < 2 else { return true }
        let part = f.leadingInt(2)
        guard part == 1 else { return part < 1 }
        return lastGSVTalker == 0
            || (b == 0x50 && (f.count % 4 == 0 || Self.ubloxSignal(nmea: f.leadingInt(f.count - 1)) == 0))
    }

    /// Ends the input: returns whether a completed view was not reported yet, stamped `time`.
    mutating func finish(time: GNSSTime?) -> Bool { takeIfComplete(time: time) }

    private mutating func takeIfComplete(time: GNSSTime?) -> Bool {
        guard complete else { return false }
        complete = false
        view.time = time
        return true
    }

    /// Records the DOP a GGA or GNS carries.
    mutating func setHDOP(_ hdop: Double) {
        if laterDOPs != nil { takeLaterDOPs() }
        view.hdop = hdop
    }

    /// Puts the DOPs of a GSA that followed the last reported view into the view, once that view was reported.
    private mutating func takeLaterDOPs() {
        guard !complete, let later = laterDOPs else { return }
        laterDOPs = nil
        if let v = later.pdop { view.pdop = v }
        if let v = later.hdop { view.hdop = v }
        if let v = later.vdop { view.vdop = v }
    }

    /// Applies a GSA of talker `a b`: the satellites used and PDOP, HDOP, VDOP. Returns whether gpsd takes the
    /// sentence's fix mode: not from a GSA too short to read (fewer than 18 fields), nor from a `GPGSA` once
    /// another talker's GSA was seen (the GL/GB/GN one that follows it gives the mode).
    mutating func applyGSA(_ f: NMEAFields, talker a: UInt8, _ b: UInt8) -> Bool {
        if laterDOPs != nil { takeLaterDOPs() }
        guard f.count >= 18 else { return false }
        let previous = lastGSATalker
        if previous == 0 || (b == previous && b != 0x4E) {
            used.removeAll()
            usedCount = 0
        }
        lastGSATalker = b
        lastGSVTalker = 0
        if b != 0x50 { seenOtherGSA = true }
        if f.count <= 19 {
            let (pdop, hdop, vdop) = (f.double(15), f.double(16), f.double(17))
            if complete {
                var later = laterDOPs ?? (nil, nil, nil)
                if let v = pdop, v < 99 { later.pdop = v }
                if let v = hdop, v < 99 { later.hdop = v }
                if let v = vdop, v < 99 { later.vdop = v }
                laterDOPs = later
            } else {
                if let v = pdop, v < 99 { view.pdop = v }
                if let v = hdop, v < 99 { view.hdop = v }
                if let v = vdop, v < 99 { view.vdop = v }
            }
        }
        // gpsd 3.22 numbers a GSA's satellites by its talker alone: it reads NMEA 4.10's system ID (field 18) as a
        // signal ID. It reads `count - 6` fields from field 3 as C's atoi does, so that with that ID the PDOP's
        // whole part (1 of 1.05) is listed as a satellite too.
        let system = NMEASatelliteNumbering.systemID(talker: b)
        var k = 3
        while k < f.count - 3 {
            let n = f.leadingInt(k)
            k += 1
            guard n > 0 else { continue }
            let prn = NMEASatelliteNumbering.identify(n, talker: a, b, system: system).prn
            if prn > 0, usedCount < 256 {
                used.insert(prn)
                usedCount &+= 1
            }
        }
        return !(seenOtherGSA && b == 0x50)
    }

    /// Applies one GSV part of talker `a b`.
    mutating func applyGSV(_ f: NMEAFields, talker a: UInt8, _ b: UInt8) {
        if laterDOPs != nil { takeLaterDOPs() }
        let previous = lastGSVTalker
        lastGSATalker = 0
        lastGSVTalker = b
        // Four satellites per part; NMEA 4.10 may append a signal ID, which makes the field count odd. gpsd keeps
        // every satellite of every signal, repeats included, with the signal in u-blox's numbering. A part gpsd
        // cannot read (too few fields, a count it does not expect, no part number) empties the view.
        guard f.count > 3, f.count % 4 < 2 else { return zero() }
        let signal = f.count % 4 == 1 ? Self.ubloxSignal(nmea: f.leadingInt(f.count - 1)) : 0
        let total = f.leadingInt(1)
        let part = f.leadingInt(2)
        guard part >= 1 else { return zero() }
        var system = 0
        if part == 1 {
            if previous == 0 || (b == 0x50 && signal == 0) { zero() }
            system = NMEASatelliteNumbering.systemID(talker: b)
            if b != 0x50 && (system != 0 || b == 0x4E) { seenOtherGSV = true }
        }
        var k = 4
        while k < f.count / 4 * 4 {
            // gpsd takes the constellation from the talker in a series' first part only; in later parts a number
            // above 32 is read by the NMEA 2.x ranges (33-64 SBAS, 65-96 GLONASS, 201-237 BeiDou ...).
            let n = f.leadingInt(k)
            if n != 0 {
                if places >= 256 {
                    zero()
                    break
                }
                places += 1
                let id = NMEASatelliteNumbering.identify(n, talker: a, b, system: system)
                // As gpsd reads them: whole numbers, an empty field being 0; an elevation beyond ±90 degrees or an
                // azimuth outside 0...359 is dropped, as gpsd leaves it out of SKY and out of the DOPs. A number
                // gpsd cannot place (PRN 0) keeps its place but is reported nowhere.
                let elevation = f.leadingInt(k + 1)
                let azimuth = f.leadingInt(k + 2)
                if azimuth != 0 { anyAzimuth = true }
                if id.prn > 0 {
                    let el = abs(elevation) <= 90 ? Double(elevation) : nil
                    let az = azimuth >= 0 && azimuth <= 359 ? Double(azimuth) : nil
                    let ss = Double(f.leadingInt(k + 3))
                    view.satellites.append(
                        Satellite(
                            prn: id.prn, gnssID: id.svID == 0 ? nil : id.gnssID, svID: id.svID == 0 ? nil : id.svID,
                            elevation: el, azimuth: az, signalStrength: ss, used: ss > 0 && used.contains(id.prn),
                            signalID: signal == 0 ? nil : signal))
                }
            }
            k += 4
        }
        guard part >= total else { return }
        // SiRFstarII's "hairball" when it sees nothing: every azimuth 0. gpsd empties the view and reports none.
        guard anyAzimuth else { return zero() }
        if seenOtherGSV && b == 0x50 { return }
        complete = true
        fillDOPs()
    }

    /// gpsd's `gpsd_zero_satellites`: an empty view, its DOPs kept.
    private mutating func zero() {
        view.satellites.removeAll(keepingCapacity: true)
        places = 0
        anyAzimuth = false
        complete = false
    }

    /// gpsd at a completed GSV series: the DOPs no receiver sentence gives (xdop, ydop, tdop, gdop) from the used
    /// satellites' geometry, and hdop, vdop and pdop the same way while no sentence gave them.
    private mutating func fillDOPs() {
        view.xdop = nil
        view.ydop = nil
        view.tdop = nil
        view.gdop = nil
        guard let geometry = SatelliteGeometry(view.satellites) else { return }
        view.xdop = geometry.xdop
        view.ydop = geometry.ydop
        view.tdop = geometry.tdop
        view.gdop = geometry.gdop
        if view.hdop == nil { view.hdop = geometry.hdop }
        if view.vdop == nil { view.vdop = geometry.vdop }
        if view.pdop == nil { view.pdop = geometry.pdop }
    }

    /// gpsd's `nmea_sigid_to_ubx`: an NMEA 4.10 signal ID in u-blox's numbering.
    private static func ubloxSignal(nmea: Int) -> Int {
        switch nmea {
        case 2: 5
        case 3: 2
        case 5: 4
        case 6: 3
        default: 0
        }
    }
}
