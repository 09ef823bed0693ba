/// Collects GSV satellites and GSA "used" lists and DOPs into one ``SkyView`` per satellite-view cycle.
///
/// A view starts with the first GSV after any other sentence and may span several talkers (GP, GL, GA, GB ...)
/// and any number of parts; it completes when a sentence other than GSV follows a series' last part.
struct SkyAssembler: Sendable {
    private(set) var view = SkyView()
    /// The PRNs of the satellites used.
    private var used = PRNSet()
    /// How many used satellites were listed, repeats included; gpsd keeps the first 256.
    private var usedCount = 0
    private var previousWasGSV = false
    private var previousWasGSA = false
    private var complete = false

    /// An assembler whose views carry `device`.
    init(device: String? = nil) {
        view.device = device
        view.satellites.reserveCapacity(64)
    }

    /// Notes a sentence of another type; returns whether the view just completed, stamped `time`: then `view` is
    /// to be reported, lent where it stands rather than copied.
    @inline(__always)
    mutating func otherSentence(time: GNSSTime?) -> Bool {
        previousWasGSV = false
        previousWasGSA = false
        return takeIfComplete(time: time)
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
    mutating func setHDOP(_ hdop: Double) { view.hdop = hdop }

    /// Applies a GSA: fix mode aside (the cycle takes it), the satellites used and PDOP, HDOP, VDOP.
    mutating func applyGSA(_ f: NMEAFields, talker a: UInt8, _ b: UInt8) {
        if !previousWasGSA {
            used.removeAll()
            usedCount = 0
        }
        previousWasGSA = true
        previousWasGSV = false
        // gpsd 3.22 numbers a GSA's satellites by its talker alone: it reads NMEA 4.10's system ID (field 18) as a
        // signal ID, so a GNGSA lists GPS-numbered satellites whatever system it names.
        let system = NMEASatelliteNumbering.systemID(talker: b)
        for k in 3...14 {
            if let n = f.int(k), case let prn = NMEASatelliteNumbering.identify(n, talker: a, b, system: system).prn,
                prn > 0, usedCount < 256
            {
                used.insert(prn)
                usedCount &+= 1
            }
        }
        if let v = f.double(15), v < 99 { view.pdop = v }
        if let v = f.double(16), v < 99 { view.hdop = v }
        if let v = f.double(17), v < 99 { view.vdop = v }
    }

    /// Applies one GSV part.
    mutating func applyGSV(_ f: NMEAFields, talker a: UInt8, _ b: UInt8) {
        guard let total = f.int(1), let part = f.int(2), total >= 1, part >= 1, part <= total else {
            return
        }
        if !previousWasGSV && part == 1 {
            view.satellites.removeAll(keepingCapacity: true)
            complete = false
        }
        previousWasGSV = true
        previousWasGSA = false
        // Four satellites per part; NMEA 4.10 may append a signal ID, which makes the field count odd. gpsd keeps
        // every satellite of every signal, repeats included, with the signal in u-blox's numbering.
        let signal = f.count % 4 == 1 ? Self.ubloxSignal(nmea: f.leadingInt(f.count - 1)) : 0
        var k = 4
        while k < f.count / 4 * 4 {
            // gpsd 3.22 takes the constellation from the talker in a series' first part only; in later parts a
            // number above 32 is read by the NMEA 2.x ranges (33-64 SBAS, 65-96 GLONASS, 201-237 BeiDou ...). A
            // number gpsd cannot place (PRN 0) is reported nowhere.
            if let n = f.int(k),
                case let id = NMEASatelliteNumbering.identify(
                    n, talker: a, b, system: part == 1 ? NMEASatelliteNumbering.systemID(talker: b) : 0),
                id.prn > 0
            {
                // As gpsd reads them: whole numbers, an empty field being 0; an elevation beyond ±90 degrees or an
                // azimuth outside 0...359 is dropped, as gpsd leaves it out of SKY and out of the DOPs.
                let elevation = f.leadingInt(k + 1)
                let azimuth = f.leadingInt(k + 2)
                let el = abs(elevation) <= 90 ? Double(elevation) : nil
                let az = azimuth >= 0 && azimuth <= 359 ? Double(azimuth) : nil
                let ss = Double(f.leadingInt(k + 3))
                if view.satellites.count < 256 {
                    view.satellites.append(
                        Satellite(
                            prn: id.prn, gnssID: id.svID == 0 ? nil : id.gnssID, svID: id.svID == 0 ? nil : id.svID,
                            elevation: el, azimuth: az,
                            signalStrength: ss, used: ss > 0 && used.contains(id.prn),
                            signalID: signal == 0 ? nil : signal))
                }
            }
            k += 4
        }
        if part == total {
            complete = true
            fillDOPs()
        }
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
