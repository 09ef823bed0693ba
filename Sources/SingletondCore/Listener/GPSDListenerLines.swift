import GNSSProtocol

/// The objects the listener writes besides TPV and SKY, in gpsd 3.22's members and order, each ending with `\r\n`
/// as gpsd's lines do.
package enum GPSDListenerLines {
    /// The release the `VERSION` object names: gpsd's protocol 3.14, as gpsd 3.22 speaks it.
    static let release = "3.22"

    /// `line` (a JSON object without newline) with gpsd's `\r\n`.
    static func crlf(_ line: [UInt8]) -> [UInt8] {
        var out = line
        out.append(0x0D)
        out.append(0x0A)
        return out
    }

    /// `{"class":"VERSION",...}`: the first line of every connection and the reply to `?VERSION;`.
    package static var version: [UInt8] {
        var writer = JSONObjectWriter()
        writer.string("class", "VERSION")
        writer.string("release", release)
        writer.string("rev", "singletond \(Singletond.version)")
        writer.int("proto_major", 3)
        writer.int("proto_minor", 14)
        return crlf(writer.finish(newline: false))
    }

    /// `{"class":"ERROR","message":...}`.
    package static func error(_ message: String) -> [UInt8] {
        crlf(JSONObjectWriter.error(message).dropLast())
    }

    /// The `DEVICE` object of the source, without newline: active since `activated` (milliseconds since 1970),
    /// or gone (`"activated":0`) when `nil`.
    ///
    /// As gpsd 3.22's `json_device_dump`: the `"driver"` only once the source's first data identified it
    /// (`identified`); `"flags":1` (NMEA seen) only once that data was taken in (`observed`), which the `DEVICE`
    /// sent at the first data is before; for a serial port (`serialSpeed`), gpsd's line settings after them:
    /// `"native":0` (NMEA), the speed, no parity, one stop bit, and the NMEA driver's cycle of one second.
    static func deviceObject(
        path: String, activated: Int64?, identified: Bool = true, observed: Bool = true, serialSpeed: Int? = nil
    ) -> [UInt8] {
        var writer = JSONObjectWriter()
        writer.string("class", "DEVICE")
        writer.string("path", path)
        guard let activated else {
            writer.int("activated", 0)
            return writer.finish(newline: false)
        }
        if identified { writer.string("driver", "NMEA0183") }
        var time: [UInt8] = [UInt8(ascii: "\"")]
        GPSDJSONWriter.appendTime(GNSSTime(millisecondsSince1970: activated), to: &time)
        time.append(UInt8(ascii: "\""))
        writer.raw("activated", time)
        if identified, observed { writer.int("flags", 1) }
        if let serialSpeed {
            writer.int("native", 0)
            writer.int("bps", serialSpeed)
            writer.string("parity", "N")
            writer.int("stopbits", 1)
            writer.raw("cycle", Array("1.00".utf8))
        }
        return writer.finish(newline: false)
    }

    /// A `DEVICE` line: the source came (`activated` set) or went; `identified` once its first data came,
    /// `observed` once that data was taken in, with a serial port's settings at `serialSpeed` (see
    /// ``deviceObject(path:activated:identified:observed:serialSpeed:)``).
    package static func device(
        path: String, activated: Int64?, identified: Bool = true, observed: Bool = true, serialSpeed: Int? = nil
    ) -> [UInt8] {
        crlf(
            deviceObject(
                path: path, activated: activated, identified: identified, observed: observed, serialSpeed: serialSpeed))
    }

    /// `{"class":"DEVICES","devices":[...]}`: the source while it is active, else an empty list; with its driver
    /// and flags once its data was `observed`.
    package static func devices(path: String, activated: Int64?, observed: Bool = true, serialSpeed: Int? = nil)
        -> [UInt8]
    {
        var list: [UInt8] = [UInt8(ascii: "[")]
        if activated != nil {
            list += deviceObject(
                path: path, activated: activated, identified: observed, observed: observed, serialSpeed: serialSpeed)
        }
        list.append(UInt8(ascii: "]"))
        var writer = JSONObjectWriter()
        writer.string("class", "DEVICES")
        writer.raw("devices", list)
        return crlf(writer.finish(newline: false))
    }

    /// `{"class":"POLL",...}`: the time now, whether the source is active for this client, and its latest TPV,
    /// GST and SKY objects, in gpsd's order. Until a GST sentence came, the GST object names the device only, and
    /// until a satellite view came the SKY object has `"nSat":0,"uSat":0`, as gpsd's do.
    package static func poll(
        now: Int64, devicePath: String, tpv: [UInt8]?, gst latestGST: [UInt8]? = nil, sky: [UInt8]?, active: Bool
    ) -> [UInt8] {
        var writer = JSONObjectWriter()
        writer.string("class", "POLL")
        var time: [UInt8] = [UInt8(ascii: "\"")]
        GPSDJSONWriter.appendTime(GNSSTime(millisecondsSince1970: now), to: &time)
        time.append(UInt8(ascii: "\""))
        writer.raw("time", time)
        writer.int("active", active ? 1 : 0)
        writer.raw("tpv", [UInt8(ascii: "[")] + (tpv ?? []) + [UInt8(ascii: "]")])
        var gst: [UInt8] = []
        if active, let latestGST {
            gst = latestGST
        } else if active {
            var object = JSONObjectWriter()
            object.string("class", "GST")
            object.string("device", devicePath)
            gst = object.finish(newline: false)
        }
        writer.raw("gst", [UInt8(ascii: "[")] + gst + [UInt8(ascii: "]")])
        var skyObject = sky ?? []
        if active, sky == nil {
            var object = JSONObjectWriter()
            object.string("class", "SKY")
            object.string("device", devicePath)
            object.int("nSat", 0)
            object.int("uSat", 0)
            skyObject = object.finish(newline: false)
        }
        writer.raw("sky", [UInt8(ascii: "[")] + skyObject + [UInt8(ascii: "]")])
        return crlf(writer.finish(newline: false))
    }

    /// `{"class":"TOFF",...}`: the serial time of a new second, `real` (from the sentence), and when it was
    /// received, `clock`, both in nanoseconds since 1970, with gpsd's spacing (a space before `"real_nsec"`).
    package static func timeOffset(devicePath: String, real: Int64, clock: Int64) -> [UInt8] {
        var writer = JSONObjectWriter()
        writer.string("class", "TOFF")
        writer.string("device", devicePath)
        let (realSeconds, realNanoseconds) = real.quotientAndRemainder(dividingBy: 1_000_000_000)
        let (clockSeconds, clockNanoseconds) = clock.quotientAndRemainder(dividingBy: 1_000_000_000)
        writer.int("real_sec", Int(realSeconds))
        var line = writer.finish(newline: false).dropLast()
        line +=
            ", \"real_nsec\":\(realNanoseconds),\"clock_sec\":\(clockSeconds),\"clock_nsec\":\(clockNanoseconds)}"
            .utf8
        return crlf(Array(line))
    }

    /// gpsd's GPS epoch, 1980-01-06, in seconds since 1970, and the length of a GPS week-number era.
    static let gpsEpoch: Int64 = 315_964_800
    static let rolloverSeconds: Int64 = 1_024 * 604_800

    /// The TPV `object` (without newline) with gpsd 3.22's `timing` members, where gpsd writes them: before `eph`
    /// and `sep`, or at the end. `rtime` is `now` (nanoseconds since 1970), the time the report is sent; `sor`,
    /// `week` and `tow` are zero, as gpsd 3.22 sends them for an NMEA source, which gives no GPS week; `rollovers`
    /// is the GPS week-number eras since 1980 at `now`. `chars` and `sats` are left out: the listener knows neither
    /// how many bytes the source's cycle took nor gpsd's count of satellites used.
    package static func withTiming(_ object: [UInt8], now: Int64) -> [UInt8] {
        let (seconds, nanoseconds) = now.quotientAndRemainder(dividingBy: 1_000_000_000)
        let fraction = String(nanoseconds)
        let rollovers = (seconds - gpsEpoch) / rolloverSeconds
        let members = Array(
            (",\"rtime\": \(seconds).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)"
                + ",\"sor\": 0.000000000,\"week\":0,\"tow\":0.000,\"rollovers\":\(rollovers)").utf8)
        var at = object.count - 1
        for name in [",\"eph\":", ",\"sep\":"] {
            if let found = firstRange(of: Array(name.utf8), in: object) {
                at = found
                break
            }
        }
        var out = object
        out.insert(contentsOf: members, at: max(at, 0))
        return out
    }

    /// Where `needle` first starts in `bytes`.
    private static func firstRange(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle)
        {
            return start
        }
        return nil
    }
}
