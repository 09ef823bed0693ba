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
    static func deviceObject(path: String, activated: Int64?) -> [UInt8] {
        var writer = JSONObjectWriter()
        writer.string("class", "DEVICE")
        writer.string("path", path)
        guard let activated else {
            writer.int("activated", 0)
            return writer.finish(newline: false)
        }
        writer.string("driver", "NMEA0183")
        var time: [UInt8] = [UInt8(ascii: "\"")]
        GPSDJSONWriter.appendTime(GNSSTime(millisecondsSince1970: activated), to: &time)
        time.append(UInt8(ascii: "\""))
        writer.raw("activated", time)
        writer.int("flags", 1)
        writer.int("native", 0)
        return writer.finish(newline: false)
    }

    /// A `DEVICE` line: the source came (`activated` set) or went.
    package static func device(path: String, activated: Int64?) -> [UInt8] {
        crlf(deviceObject(path: path, activated: activated))
    }

    /// `{"class":"DEVICES","devices":[...]}`: the source while it is active, else an empty list.
    package static func devices(path: String, activated: Int64?) -> [UInt8] {
        var list: [UInt8] = [UInt8(ascii: "[")]
        if activated != nil { list += deviceObject(path: path, activated: activated) }
        list.append(UInt8(ascii: "]"))
        var writer = JSONObjectWriter()
        writer.string("class", "DEVICES")
        writer.raw("devices", list)
        return crlf(writer.finish(newline: false))
    }

    /// `{"class":"POLL",...}`: the time now, whether the source is active, and its latest TPV and SKY objects.
    package static func poll(now: Int64, active: Bool, tpv: [UInt8]?, sky: [UInt8]?) -> [UInt8] {
        var writer = JSONObjectWriter()
        writer.string("class", "POLL")
        var time: [UInt8] = [UInt8(ascii: "\"")]
        GPSDJSONWriter.appendTime(GNSSTime(millisecondsSince1970: now), to: &time)
        time.append(UInt8(ascii: "\""))
        writer.raw("time", time)
        writer.int("active", active ? 1 : 0)
        writer.raw("tpv", [UInt8(ascii: "[")] + (tpv ?? []) + [UInt8(ascii: "]")])
        writer.raw("sky", [UInt8(ascii: "[")] + (sky ?? []) + [UInt8(ascii: "]")])
        return crlf(writer.finish(newline: false))
    }
}
