/// Writes the TPV and SKY lines of one stream of reports, keeping what repeats from line to line: the device
/// member, escaped once per device name, and the date part of the last time written.
///
/// ``GPSDJSONWriter`` writes each line with a fresh writer; a decoder or a daemon output that writes line after
/// line keeps one, so that the device name is not scanned for escapes and the calendar date not recomputed per
/// line. The lines are the same either way.
package struct GPSDReportWriter {
    /// The device name whose member `deviceMember` holds.
    private var deviceName: String?
    /// `,"device":"…"` for `deviceName`, escaped.
    private var deviceMember: [UInt8] = []
    /// The date part of the last time written.
    private var dates = DatePrefixCache()
    /// Whether `deviceMember` is kept: not by the writer of a single line, for which building it would cost an
    /// allocation and a second copy.
    private let keepsDevice: Bool

    /// Creates a writer that has written nothing yet.
    package init() { self.init(keepsDevice: true) }

    private init(keepsDevice: Bool) { self.keepsDevice = keepsDevice }

    /// A writer for one line, which keeps nothing for a next one (``GPSDJSONWriter``'s).
    static func singleLine() -> GPSDReportWriter { GPSDReportWriter(keepsDevice: false) }

    /// Appends one TPV line for `fix`, ending with `\n` when `newline` is true. `device` overrides `fix.device`.
    package mutating func appendTPV(
        _ fix: Fix, device: String? = nil, newline: Bool = true, to out: inout [UInt8]
    ) {
        LineBuffer.with(&out) { w, out in
            open("{\"class\":\"TPV\"", device: device ?? fix.device, time: nil, &w, &out)
            w.reserve(96, &out)
            if let status = fix.status, status >= 2 {
                w.literal(",\"status\":")
                w.int(status)
            }
            w.literal(",\"mode\":")
            w.int(fix.mode.rawValue)
            if let time = fix.time { w.timeMember(time, &dates) }
            if let leapSeconds = fix.leapSeconds {
                w.literal(",\"leapseconds\":")
                w.int(leapSeconds)
            }
            w.number(",\"ept\":", fix.ept, 3, &out)
            w.number(",\"lat\":", fix.latitude, 9, &out)
            w.number(",\"lon\":", fix.longitude, 9, &out)
            w.number(",\"altHAE\":", fix.altitudeHAE, 4, &out)
            w.number(",\"altMSL\":", fix.altitudeMSL, 4, &out)
            w.number(",\"alt\":", fix.altitudeMSL, 4, &out)
            w.number(",\"epx\":", fix.epx, 3, &out)
            w.number(",\"epy\":", fix.epy, 3, &out)
            w.number(",\"epv\":", fix.epv, 3, &out)
            w.number(",\"track\":", fix.track, 4, &out)
            w.number(",\"magtrack\":", fix.magneticTrack, 4, &out)
            w.number(",\"magvar\":", fix.magneticVariation, 1, &out)
            w.number(",\"speed\":", fix.speed, 3, &out)
            w.number(",\"climb\":", fix.climb, 3, &out)
            w.number(",\"epd\":", fix.epd, 4, &out)
            w.number(",\"eps\":", fix.eps, 2, &out)
            w.number(",\"epc\":", fix.epc, 2, &out)
            if let north = fix.velocityNorth, let east = fix.velocityEast {
                w.reserve(80, &out)
                w.number(",\"velN\":", north, 3, &out)
                w.number(",\"velE\":", east, 3, &out)
                w.number(",\"velD\":", fix.velocityDown, 3, &out)
            }
            w.number(",\"geoidSep\":", fix.geoidSeparation, 3, &out)
            w.number(",\"eph\":", fix.eph, 3, &out)
            w.number(",\"sep\":", fix.sep, 3, &out)
            w.number(",\"depth\":", fix.depth, 3, &out)
            if let age = fix.dgpsAge, let station = fix.dgpsStation, station >= 0 {
                w.reserve(60, &out)
                w.number(",\"dgpsAge\":", age, 1, &out)
                w.literal(",\"dgpsSta\":")
                w.int(station)
            }
            Self.close(newline: newline, &w, &out)
        }
    }

    /// Appends one SKY line for `view`, ending with `\n` when `newline` is true. `device` overrides `view.device`.
    package mutating func appendSKY(
        _ view: SkyView, device: String? = nil, newline: Bool = true, to out: inout [UInt8]
    ) {
        LineBuffer.with(&out) { w, out in
            open("{\"class\":\"SKY\"", device: device ?? view.device, time: view.time, &w, &out)
            w.number(",\"xdop\":", view.xdop, 2, &out)
            w.number(",\"ydop\":", view.ydop, 2, &out)
            w.number(",\"vdop\":", view.vdop, 2, &out)
            w.number(",\"tdop\":", view.tdop, 2, &out)
            w.number(",\"hdop\":", view.hdop, 2, &out)
            w.number(",\"gdop\":", view.gdop, 2, &out)
            w.number(",\"pdop\":", view.pdop, 2, &out)
            w.reserve(80, &out)
            w.literal(",\"nSat\":")
            w.int(view.satellitesInView)
            w.literal(",\"uSat\":")
            w.int(view.satellitesUsed)
            w.literal(",\"satellites\":[")
            var first = true
            for s in view.satellites {
                // One satellite: at most 3 integers (20 bytes each), 3 numbers (40 each), the comma before it and
                // 65 bytes of names and punctuation: 246 bytes, all reserved here.
                w.reserve(300, &out)
                if !first { w.byte(0x2C) }
                first = false
                w.literal("{\"PRN\":")
                w.int(s.prn)
                w.tenths(",\"el\":", s.elevation)
                w.tenths(",\"az\":", s.azimuth)
                w.tenths(",\"ss\":", s.signalStrength)
                if s.used { w.literal(",\"used\":true") } else { w.literal(",\"used\":false") }
                if let g = s.gnssID {
                    w.literal(",\"gnssid\":")
                    w.int(g)
                }
                if let v = s.svID {
                    w.literal(",\"svid\":")
                    w.int(v)
                }
                if let signal = s.signalID, signal != 0 {
                    w.literal(",\"sigid\":")
                    w.int(signal)
                }
                w.byte(0x7D)
            }
            w.reserve(4, &out)
            w.literal("]}")
            if newline { w.byte(0x0A) }
        }
    }

    /// Appends one GST line for `noise`, as gpsd's `json_noise_dump()` writes it: each value with 3 decimals.
    /// `device` overrides `noise.device`.
    package mutating func appendGST(
        _ noise: PseudorangeNoise, device: String? = nil, newline: Bool = true, to out: inout [UInt8]
    ) {
        LineBuffer.with(&out) { w, out in
            open("{\"class\":\"GST\"", device: device ?? noise.device, time: noise.time, &w, &out)
            w.number(",\"rms\":", noise.rms, 3, &out)
            w.number(",\"major\":", noise.major, 3, &out)
            w.number(",\"minor\":", noise.minor, 3, &out)
            w.number(",\"orient\":", noise.orientation, 3, &out)
            w.number(",\"lat\":", noise.latitude, 3, &out)
            w.number(",\"lon\":", noise.longitude, 3, &out)
            w.number(",\"alt\":", noise.altitude, 3, &out)
            Self.close(newline: newline, &w, &out)
        }
    }

    /// Appends one ATT line for `attitude`, as gpsd's `json_att_dump()` writes it: the heading, dip and `mag_x` with
    /// three decimals, pitch and roll with two, each status after its angle.
    /// `device` overrides `attitude.device`.
    package mutating func appendATT(
        _ attitude: Attitude, device: String? = nil, newline: Bool = true, to out: inout [UInt8]
    ) {
        LineBuffer.with(&out) { w, out in
            open("{\"class\":\"ATT\"", device: device ?? attitude.device, time: nil, &w, &out)
            w.number(",\"heading\":", attitude.heading, 3, &out)
            Self.status(",\"mag_st\":", attitude.magneticStatus, after: attitude.heading, &w, &out)
            w.number(",\"pitch\":", attitude.pitch, 2, &out)
            Self.status(",\"pitch_st\":", attitude.pitchStatus, after: attitude.pitch, &w, &out)
            w.number(",\"roll\":", attitude.roll, 2, &out)
            Self.status(",\"roll_st\":", attitude.rollStatus, after: attitude.roll, &w, &out)
            w.number(",\"dip\":", attitude.dip, 3, &out)
            w.number(",\"mag_x\":", attitude.horizontalField, 3, &out)
            Self.close(newline: newline, &w, &out)
        }
    }

    /// Writes `key` and `status` as a one-character string, when there is a status and its angle was written.
    private static func status(
        _ key: StaticString, _ status: Character?, after angle: Double?, _ w: inout LineBuffer, _ out: inout [UInt8]
    ) {
        guard let status, angle?.isFinite == true else { return }
        w.reserve(key.utf8CodeUnitCount, &out)
        w.literal(key)
        w.string(String(status), &out)
    }

    /// How every line opens: `opening` (`{"class":"TPV"`), then the device and the time members when there are.
    @inline(__always)
    private mutating func open(
        _ opening: StaticString, device: String?, time: GNSSTime?, _ w: inout LineBuffer, _ out: inout [UInt8]
    ) {
        w.reserve(64, &out)
        w.literal(opening)
        if let device { writeDevice(device, &w, &out) }
        if let time {
            w.reserve(40, &out)
            w.timeMember(time, &dates)
        }
    }

    /// How a line without a list at its end closes: `}`, then `\n` when `newline`.
    @inline(__always)
    private static func close(newline: Bool, _ w: inout LineBuffer, _ out: inout [UInt8]) {
        w.reserve(2, &out)
        w.byte(0x7D)
        if newline { w.byte(0x0A) }
    }

    /// `,"device":"name"`: escaped the first time a name is written, then copied.
    @inline(__always)
    private mutating func writeDevice(_ device: String, _ w: inout LineBuffer, _ out: inout [UInt8]) {
        guard keepsDevice else {
            w.literal(",\"device\":")
            w.string(device, &out)
            return
        }
        // Equal strings that share storage (the same name on every line) compare without reading their bytes.
        if device != deviceName {
            deviceName = device
            deviceMember.removeAll(keepingCapacity: true)
            deviceMember.append(contentsOf: ",\"device\":".utf8)
            GPSDJSONWriter.appendString(device, to: &deviceMember)
        }
        w.bytes(deviceMember, &out)
    }
}
