import GNSSProtocol

/// The members of one `?WATCH={...}` request: what the client asks to change in its streaming policy.
///
/// gpsd 3.22's rules for a member left out of the object (`json_watch_read`): `json`, `nmea` and `raw` keep their
/// value; `enable` is `true`; `scaled`, `timing`, `split24` and `pps` are `false`; `device` is none (every device).
/// ``init(parsing:)`` fills those in, so that only `?WATCH;` (``init()``) changes nothing.
package struct GPSDWatchChange: Sendable, Hashable {
    /// `enable`: start or stop streaming.
    package var enable: Bool?
    /// `json`: reports as JSON objects.
    package var json: Bool?
    /// `nmea`: raw NMEA sentences (where the source is NMEA).
    package var nmea: Bool?
    /// `raw`: gpsd's raw level, 0 to 2; 1 and 2 relay an NMEA source's sentences as `nmea` does.
    package var raw: Int?
    /// `scaled`: accepted and echoed, never acted on.
    package var scaled: Bool?
    /// `timing`: TPVs carry gpsd's timing members.
    package var timing: Bool?
    /// `split24`: accepted and echoed, never acted on.
    package var split24: Bool?
    /// `pps`: a `TOFF` report for the serial time of each new second.
    package var pps: Bool?
    /// `device`: the one device to watch, `""` for every device; this daemon has one.
    package var device: String?

    /// A request that changes nothing (`?WATCH;`).
    package init() {}

    /// Reads the object of `?WATCH=`, with gpsd's value for each member left out; members of another type than
    /// gpsd's are an error, unknown members are ignored, as gpsd ignores them.
    package init(parsing object: ArraySlice<UInt8>) throws(GPSDWatchChangeError) {
        enable = true
        scaled = false
        timing = false
        split24 = false
        pps = false
        device = ""
        let value: JSONValue
        do throws(JSONError) {
            value = try JSONValue(parsing: object, maximumDepth: 4)
        } catch {
            throw GPSDWatchChangeError(message: "\(error)")
        }
        guard case .object(let members) = value else { throw GPSDWatchChangeError(message: "not a JSON object") }
        for member in members {
            switch (member.key, member.value) {
            case ("enable", .bool(let flag)): enable = flag
            case ("json", .bool(let flag)): json = flag
            case ("nmea", .bool(let flag)): nmea = flag
            case ("scaled", .bool(let flag)): scaled = flag
            case ("timing", .bool(let flag)): timing = flag
            case ("split24", .bool(let flag)): split24 = flag
            case ("pps", .bool(let flag)): pps = flag
            case ("raw", .number(let level)) where level >= 0 && level <= 2 && level.rounded() == level:
                raw = Int(level)
            case ("device", .string(let path)): device = path
            case ("enable", _), ("json", _), ("nmea", _), ("scaled", _), ("timing", _), ("split24", _), ("pps", _),
                ("raw", _), ("device", _):
                throw GPSDWatchChangeError(message: "bad value of \(member.key)")
            default: continue
            }
        }
    }
}

/// Why a `?WATCH={...}` object was refused: the text after `Invalid WATCH: ` in the `ERROR` reply.
package struct GPSDWatchChangeError: Error, Sendable, Hashable {
    /// What is wrong, for example `bad value of enable`.
    package var message: String
}
