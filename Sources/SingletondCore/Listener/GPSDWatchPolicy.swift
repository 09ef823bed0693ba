/// One client's streaming policy, as gpsd keeps it per connection and echoes it in its `WATCH` reply.
package struct GPSDWatchPolicy: Sendable, Hashable {
    /// Whether the client streams (`enable`).
    package var enable = false
    /// Whether reports come as JSON objects (`json`).
    package var json = false
    /// Whether the client gets the source's raw NMEA sentences (`nmea`).
    package var nmea = false
    /// gpsd's raw level (`raw`); echoed, never acted on.
    package var raw = 0
    /// `scaled`; echoed, never acted on.
    package var scaled = false
    /// `timing`; echoed, never acted on.
    package var timing = false
    /// `split24`; echoed, never acted on.
    package var split24 = false
    /// `pps`; echoed, never acted on: the daemon has no PPS.
    package var pps = false

    /// The policy of a client that has sent no `?WATCH` yet.
    package init() {}

    /// Applies `change`; as in gpsd, enabling with neither `json` nor `nmea` asked for streams JSON.
    package mutating func apply(_ change: GPSDWatchChange) {
        if let enable = change.enable { self.enable = enable }
        if let json = change.json { self.json = json }
        if let nmea = change.nmea { self.nmea = nmea }
        if let raw = change.raw { self.raw = raw }
        if let scaled = change.scaled { self.scaled = scaled }
        if let timing = change.timing { self.timing = timing }
        if let split24 = change.split24 { self.split24 = split24 }
        if let pps = change.pps { self.pps = pps }
        if enable, !json, !nmea, raw == 0 { json = true }
    }

    /// Whether the client gets the JSON reports (TPV, SKY, DEVICE).
    package var wantsReports: Bool { enable && json }

    /// Whether the client gets the raw NMEA sentences.
    package var wantsSentences: Bool { enable && nmea }

    /// Whether the client watches: it gets JSON reports or raw sentences. A client that enabled only what the
    /// listener does not serve (`raw` without `json` or `nmea`) gets nothing and does not watch.
    package var watches: Bool { wantsReports || wantsSentences }

    /// gpsd's `WATCH` reply for this policy.
    package var line: [UInt8] {
        var writer = JSONObjectWriter()
        writer.string("class", "WATCH")
        writer.bool("enable", enable)
        writer.bool("json", json)
        writer.bool("nmea", nmea)
        writer.int("raw", raw)
        writer.bool("scaled", scaled)
        writer.bool("timing", timing)
        writer.bool("split24", split24)
        writer.bool("pps", pps)
        return GPSDListenerLines.crlf(writer.finish(newline: false))
    }
}
