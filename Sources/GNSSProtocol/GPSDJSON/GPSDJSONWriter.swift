/// Writes gpsd-style JSON report lines (`{"class":"TPV",...}`, `{"class":"SKY",...}`) into a byte buffer.
///
/// Field names, order, units and number formats follow gpsd 3.22's `gpsd_json(5)` output, so that tools written
/// for `gpspipe -w` or `gpsdecode` read these lines unchanged: lat/lon with 9 decimals, altitudes and tracks with
/// 4, speeds, climb and most error estimates with 3, DOPs with 2. Absent values are left out. No Foundation and
/// no allocation beyond the growth of the caller's buffer.
public enum GPSDJSONWriter {
    /// Appends one TPV line for `fix`, ending with `\n` when `newline` is true. `device` overrides `fix.device`.
    public static func appendTPV(
        _ fix: Fix, device: String? = nil, newline: Bool = true, to out: inout [UInt8]
    ) {
        literal("{\"class\":\"TPV\"", &out)
        if let device = device ?? fix.device {
            literal(",\"device\":", &out)
            appendString(device, to: &out)
        }
        if let status = fix.status, status >= 2 {
            literal(",\"status\":", &out)
            appendInt(status, to: &out)
        }
        literal(",\"mode\":", &out)
        appendInt(fix.mode.rawValue, to: &out)
        if let time = fix.time {
            literal(",\"time\":\"", &out)
            appendTime(time, to: &out)
            out.append(0x22)
        }
        number("ept", fix.ept, 3, &out)
        number("lat", fix.latitude, 9, &out)
        number("lon", fix.longitude, 9, &out)
        number("altHAE", fix.altitudeHAE, 4, &out)
        number("altMSL", fix.altitudeMSL, 4, &out)
        number("alt", fix.altitudeMSL, 4, &out)
        number("epx", fix.epx, 3, &out)
        number("epy", fix.epy, 3, &out)
        number("epv", fix.epv, 3, &out)
        number("track", fix.track, 4, &out)
        number("magtrack", fix.magneticTrack, 4, &out)
        number("magvar", fix.magneticVariation, 1, &out)
        number("speed", fix.speed, 3, &out)
        number("climb", fix.climb, 3, &out)
        number("epd", fix.epd, 4, &out)
        number("eps", fix.eps, 2, &out)
        number("epc", fix.epc, 2, &out)
        number("geoidSep", fix.geoidSeparation, 3, &out)
        number("eph", fix.eph, 3, &out)
        number("sep", fix.sep, 3, &out)
        out.append(0x7D)
        if newline { out.append(0x0A) }
    }

    /// Appends one SKY line for `view`, ending with `\n` when `newline` is true. `device` overrides `view.device`.
    public static func appendSKY(
        _ view: SkyView, device: String? = nil, newline: Bool = true, to out: inout [UInt8]
    ) {
        literal("{\"class\":\"SKY\"", &out)
        if let device = device ?? view.device {
            literal(",\"device\":", &out)
            appendString(device, to: &out)
        }
        if let time = view.time {
            literal(",\"time\":\"", &out)
            appendTime(time, to: &out)
            out.append(0x22)
        }
        number("xdop", view.xdop, 2, &out)
        number("ydop", view.ydop, 2, &out)
        number("vdop", view.vdop, 2, &out)
        number("tdop", view.tdop, 2, &out)
        number("hdop", view.hdop, 2, &out)
        number("gdop", view.gdop, 2, &out)
        number("pdop", view.pdop, 2, &out)
        literal(",\"nSat\":", &out)
        appendInt(view.satellitesInView, to: &out)
        literal(",\"uSat\":", &out)
        appendInt(view.satellitesUsed, to: &out)
        literal(",\"satellites\":[", &out)
        var first = true
        for s in view.satellites {
            if !first { out.append(0x2C) }
            first = false
            literal("{\"PRN\":", &out)
            appendInt(s.prn, to: &out)
            number("el", s.elevation, 1, &out)
            number("az", s.azimuth, 1, &out)
            number("ss", s.signalStrength, 1, &out)
            literal(s.used ? ",\"used\":true" : ",\"used\":false", &out)
            if let g = s.gnssID {
                literal(",\"gnssid\":", &out)
                appendInt(g, to: &out)
            }
            if let v = s.svID {
                literal(",\"svid\":", &out)
                appendInt(v, to: &out)
            }
            out.append(0x7D)
        }
        literal("]}", &out)
        if newline { out.append(0x0A) }
    }

    /// Appends `time` in gpsd's form, `YYYY-MM-DDTHH:MM:SS.sssZ`, without quotes.
    public static func appendTime(_ time: GNSSTime, to out: inout [UInt8]) {
        let c = time.components
        digits(c.year, 4, &out)
        out.append(0x2D)
        digits(c.month, 2, &out)
        out.append(0x2D)
        digits(c.day, 2, &out)
        out.append(0x54)
        digits(c.hour, 2, &out)
        out.append(0x3A)
        digits(c.minute, 2, &out)
        out.append(0x3A)
        digits(c.second, 2, &out)
        out.append(0x2E)
        digits(c.millisecond, 3, &out)
        out.append(0x5A)
    }

    /// Appends `value` with exactly `decimals` digits after the point (as C's `%.Nf`); non-finite values append
    /// nothing.
    public static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        guard value.isFinite else { return }
        let d = max(0, min(decimals, 12))
        var scale = 1.0
        var intScale: UInt64 = 1
        for _ in 0..<d {
            scale *= 10
            intScale *= 10
        }
        let magnitude = abs(value)
        let scaled = (magnitude * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e18 else {
            // Beyond 64-bit fixed point: no real report has such numbers; write the integer part's magnitude.
            if value < 0 { out.append(0x2D) }
            appendInt(Int(min(magnitude, 9.0e18)), to: &out)
            return
        }
        let units = UInt64(scaled)
        if value < 0 && units != 0 { out.append(0x2D) }
        appendUnsigned(units / intScale, to: &out)
        if d > 0 {
            out.append(0x2E)
            var fraction = units % intScale
            var divisor = intScale / 10
            while divisor > 0 {
                out.append(0x30 &+ UInt8(truncatingIfNeeded: fraction / divisor))
                fraction %= divisor
                divisor /= 10
            }
        }
    }

    /// Appends a decimal integer.
    public static func appendInt(_ value: Int, to out: inout [UInt8]) {
        if value < 0 {
            out.append(0x2D)
            appendUnsigned(UInt64(value.magnitude), to: &out)
        } else {
            appendUnsigned(UInt64(value), to: &out)
        }
    }

    /// Appends `text` as a JSON string with quotes and escapes.
    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(0x22)
        for c in text.utf8 {
            switch c {
            case 0x22, 0x5C:
                out.append(0x5C)
                out.append(c)
            case 0x0A: literal("\\n", &out)
            case 0x0D: literal("\\r", &out)
            case 0x09: literal("\\t", &out)
            case 0x00..<0x20:
                literal("\\u00", &out)
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(hex[Int(c >> 4)])
                out.append(hex[Int(c & 15)])
            default: out.append(c)
            }
        }
        out.append(0x22)
    }

    private static func appendUnsigned(_ value: UInt64, to out: inout [UInt8]) {
        if value < 10 {
            out.append(0x30 &+ UInt8(value))
            return
        }
        var v = value
        var divisor: UInt64 = 1
        while v / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            out.append(0x30 &+ UInt8(truncatingIfNeeded: v / divisor))
            v %= divisor
            divisor /= 10
        }
    }

    @inline(__always)
    private static func digits(_ value: Int, _ count: Int, _ out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        var v = value
        while divisor > 0 {
            out.append(0x30 &+ UInt8(truncatingIfNeeded: (v / divisor) % 10))
            v %= divisor
            divisor /= 10
        }
    }

    @inline(__always)
    private static func literal(_ text: StaticString, _ out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    @inline(__always)
    private static func number(
        _ name: StaticString, _ value: Double?, _ decimals: Int, _ out: inout [UInt8]
    ) {
        guard let value, value.isFinite else { return }
        out.append(0x2C)
        out.append(0x22)
        literal(name, &out)
        out.append(0x22)
        out.append(0x3A)
        appendFixed(value, decimals: decimals, to: &out)
    }
}
