/// One client's streaming policy, as gpsd keeps it per connection and echoes it in its `WATCH` reply.
package struct GPSDWatchPolicy: Sendable, Hashable {
    /// Whether the client streams (`enable`).
    package var enable = false
    /// Whether reports come as JSON objects (`json`).
    package var json = false
    /// Whether the client gets the source's raw NMEA sentences (`nmea`).
    package var nmea = false
    /// gpsd's raw level (`raw`): for an NMEA source, 1 and 2 relay the sentences as `nmea` does.
    package var raw = 0
    /// `scaled`; echoed, never acted on.
    package var scaled = false
    /// Whether TPVs carry gpsd's timing members (`timing`).
    package var timing = false
    /// `split24`; echoed, never acted on.
    package var split24 = false
    /// Whether the client gets a `TOFF` report for the serial time of each new second (`pps`).
    package var pps = false
    /// The device watched (`device`), `""` for every device; echoed when set.
    package var device = ""

    /// The policy of a client that has sent no `?WATCH` yet.
    package init() {}

    /// Applies `change`. As in gpsd, `enable` alone streams nothing: `json` stays as it was, `false` at first.
    package mutating func apply(_ change: GPSDWatchChange) {
        if let enable = change.enable { self.enable = enable }
        if let json = change.json { self.json = json }
        if let nmea = change.nmea { self.nmea = nmea }
        if let raw = change.raw { self.raw = raw }
        if let scaled = change.scaled { self.scaled = scaled }
        if let timing = change.timing { self.timing = timing }
        if let split24 = change.split24 { self.split24 = split24 }
        if let pps = change.pps { self.pps = pps }
        if let device = change.device { self.device = device }
    }

    /// Whether the client gets the JSON reports (TPV, SKY, DEVICE).
    package var wantsReports: Bool { enable && json }

    /// Whether the client gets the raw NMEA sentences: `nmea`, or `raw` 1 or 2, which gpsd serves alike for an NMEA
    /// source (`raw_report`: a textual packet goes out as it came).
    package var wantsSentences: Bool { enable && (nmea || raw > 0) }

    /// Whether the client gets `TOFF` reports.
    package var wantsTimeOffsets: Bool { enable && pps }

    /// Whether the client watches: it gets JSON reports, raw sentences or `TOFF` reports. A client that enabled
    /// with none of `json`, `nmea`, `raw` or `pps` gets nothing and does not watch, as in gpsd.
    package var watches: Bool { wantsReports || wantsSentences || wantsTimeOffsets }

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
        if !device.isEmpty { writer.string("device", device) }
        return GPSDListenerLines.crlf(writer.finish(newline: false))
    }
}
