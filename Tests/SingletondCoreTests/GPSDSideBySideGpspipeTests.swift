import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// `gpspipe -w`, `-r` and `-R` against the daemon's gpsd listener and against a real gpsd fed the same log in the
/// same test (``SideBySide``): what gpspipe prints must be what it prints for gpsd.
@Suite(.gpsdTools, .hangBound) struct GPSDSideBySideGpspipeTests {
    /// The lines `reader` gives until a TPV of the log's last epoch (at most 2,000 lines, each within 60 s).
    static func linesThroughLastTPV(_ reader: LineReader) async -> [String] {
        var lines: [String] = []
        while lines.count < 2_000, let line = await reader.nextLine(timeout: 60) {
            lines.append(line)
            let object = SideBySide.object(line)
            if object?["class"]?.stringValue == "TPV", object?["time"]?.stringValue == SideBySide.lastTime { break }
        }
        return lines
    }

    /// The members of a report but its `device` (the source's path for the daemon, gpsd's `tcp://` device).
    static func members(_ report: JSONValue) -> [String: JSONValue] {
        Dictionary((report.objectValue ?? []).map { ($0.key, $0.value) }) { first, _ in first }
            .filter { $0.key != "device" }
    }

    /// The last TPV of each time among `lines`: gpsd sends partial TPVs of an epoch as its sentences come, and the
    /// last one is the epoch's whole fix.
    static func lastTPVByTime(_ lines: [String]) -> [String: [String: JSONValue]] {
        var byTime: [String: [String: JSONValue]] = [:]
        for report in lines.compactMap(SideBySide.object) where report["class"]?.stringValue == "TPV" {
            if let time = report["time"]?.stringValue { byTime[time] = members(report) }
        }
        return byTime
    }

    /// The members of the last SKY among `lines` but its `time` (gpsd's SKY has none), the satellites as a set.
    static func lastSky(_ lines: [String]) -> [String: JSONValue] {
        let sky = lines.compactMap(SideBySide.object).last { $0["class"]?.stringValue == "SKY" }
        var members = sky.map(Self.members) ?? [:]
        members["time"] = nil
        if let satellites = members["satellites"]?.arrayValue {
            // Each satellite's members in name order, the satellites in the order of their text: a set.
            let canonical = satellites.map { JSONValue.object(($0.objectValue ?? []).sorted { $0.key < $1.key }) }
            members["satellites"] = .array(canonical.sorted { "\($0)" < "\($1)" })
        }
        return members
    }

    /// Runs `gpspipe arguments` against gpsd and against the daemon, feeds the log once both printed the WATCH
    /// echo (gpspipe prints the JSON header in every mode), and returns what each printed, header included: gpsd's
    /// first.
    static func gpspipe(
        _ arguments: [String], _ pair: SideBySide, read: (LineReader) async -> [String]
    ) async throws -> (gpsd: [String], daemon: [String]) {
        let gpspipe = try SideBySide.tool("gpspipe")
        let theirs = try ChildProcess(gpspipe, arguments + [pair.server(ofGpsd: true)], stdout: .pipe)
        defer { theirs.kill() }
        let ours = try ChildProcess(gpspipe, arguments + [pair.server(ofGpsd: false)], stdout: .pipe)
        defer { ours.kill() }
        let echo = "{\"class\":\"WATCH\""
        let gpsdEcho = await theirs.stdout.line(containing: echo, timeout: 60)
        #expect(gpsdEcho != nil, "gpsd's gpspipe printed \(theirs.stdout.history)")
        let ourEcho = await ours.stdout.line(containing: echo, timeout: 60)
        #expect(ourEcho != nil, "the daemon's gpspipe printed \(ours.stdout.history)")
        try pair.feedLog()
        _ = (await read(theirs.stdout), await read(ours.stdout))
        return (theirs.stdout.history, ours.stdout.history)
    }

    /// The members in which `ours` and `gpsd` differ, each as `name: ours / gpsd's` (`-` for a missing one).
    static func differences(_ ours: [String: JSONValue], _ gpsd: [String: JSONValue]) -> [String] {
        func text(_ value: JSONValue?) -> String {
            switch value {
            case nil: "-"
            case .number(let number)?: "\(number)"
            case .string(let string)?: string
            case let other?: "\(other)".count > 60 ? "[\(other.arrayValue?.count ?? 0) items]" : "\(other)"
            }
        }
        return Set(gpsd.keys).union(ours.keys).filter { gpsd[$0] != ours[$0] }.sorted()
            .map { "\($0): \(text(ours[$0])) / \(text(gpsd[$0]))" }
    }

    /// `gpspipe -w`: the reports before the first TPV or SKY are gpsd's (VERSION, DEVICES, WATCH, then the
    /// DEVICE of the activated source, with gpsd's members and driver), every epoch's TPV carries gpsd's members with gpsd's values (error
    /// estimates, magnetic variation), each GST sentence gives gpsd's GST report, and the last SKY carries gpsd's
    /// DOPs (`xdop`, `ydop`, `tdop`, `gdop`).
    @Test func jsonReportsAgreeWithGpsd() async throws {
        let pair = try await SideBySide.start()
        let (theirs, ours) = try await Self.gpspipe(["-w"], pair, read: Self.linesThroughLastTPV)
        await pair.stop()

        func opening(_ lines: [String]) -> [String] {
            lines.compactMap { SideBySide.object($0)?["class"]?.stringValue }.prefix { $0 != "TPV" && $0 != "SKY" }
        }
        #expect(opening(theirs) == ["VERSION", "DEVICES", "WATCH", "DEVICE"], "gpsd sent \(theirs.prefix(5))")
        #expect(opening(ours) == opening(theirs), "the daemon sent \(ours.prefix(5).joined(separator: "\n"))")
        // The DEVICE of the activation: gpsd's members (path, driver, activated), with gpsd's driver.
        func device(_ lines: [String]) -> [String: JSONValue] {
            lines.compactMap(SideBySide.object).first { $0["class"]?.stringValue == "DEVICE" }.map(Self.members) ?? [:]
        }
        let (gpsdDevice, ourDevice) = (device(theirs), device(ours))
        #expect(
            Set(ourDevice.keys) == Set(gpsdDevice.keys) && ourDevice["driver"] == gpsdDevice["driver"]
                && ourDevice["activated"]?.stringValue != nil,
            "DEVICE, ours / gpsd's: \(Self.differences(ourDevice, gpsdDevice))")

        let gpsdTPVs = Self.lastTPVByTime(theirs)
        let ourTPVs = Self.lastTPVByTime(ours)
        #expect(gpsdTPVs.count == 20, "gpsd sent \(theirs.joined(separator: "\n"))")
        #expect(ourTPVs.keys.sorted() == gpsdTPVs.keys.sorted(), "the daemon sent \(ours.joined(separator: "\n"))")
        let mismatches = gpsdTPVs.sorted { $0.key < $1.key }.compactMap { time, gpsd in
            let differing = Self.differences(ourTPVs[time] ?? [:], gpsd)
            return differing.isEmpty ? nil : "\(time): \(differing.joined(separator: ", "))"
        }
        #expect(mismatches.isEmpty, "TPVs, ours / gpsd's:\n\(mismatches.joined(separator: "\n"))")

        // A GST report for each GST sentence, after it, with gpsd's members and values (the time on the fix's date).
        func gsts(_ lines: [String]) -> [[String: JSONValue]] {
            lines.compactMap(SideBySide.object).filter { $0["class"]?.stringValue == "GST" }.map(Self.members)
        }
        let (gpsdGSTs, ourGSTs) = (gsts(theirs), gsts(ours))
        #expect(gpsdGSTs.count == 20 && gpsdGSTs.last?["orient"] != nil, "gpsd sent \(gpsdGSTs)")
        let gstMismatches = zip(ourGSTs, gpsdGSTs).map { Self.differences($0, $1) }.filter { !$0.isEmpty }
        #expect(ourGSTs.count == gpsdGSTs.count && gstMismatches.isEmpty, "GSTs, ours / gpsd's: \(gstMismatches)")

        let gpsdSky = Self.lastSky(theirs)
        let ourSky = Self.lastSky(ours)
        #expect(["xdop", "ydop", "tdop", "gdop"].allSatisfy { gpsdSky[$0]?.doubleValue != nil }, "\(gpsdSky)")
        let differing = Self.differences(ourSky, gpsdSky)
        let satellites = { (sky: [String: JSONValue]) in
            Set(
                (sky["satellites"]?.arrayValue ?? []).map { satellite in
                    (satellite.objectValue ?? []).map {
                        "\($0.key)=\($0.value.doubleValue.map { "\($0)" } ?? "\($0.value)")"
                    }
                    .joined(separator: " ")
                })
        }
        #expect(
            differing.isEmpty,
            """
            the last SKY, ours / gpsd's: \(differing)
            satellites only ours: \(satellites(ourSky).subtracting(satellites(gpsdSky)).sorted())
            satellites only gpsd's: \(satellites(gpsdSky).subtracting(satellites(ourSky)).sorted())
            """)
    }

    /// `gpspipe -r` (`"nmea":true`): the sentences it prints are gpsd's, byte for byte: every sentence of the log
    /// that passed its checksum, with the line ending it came with.
    @Test func nmeaRelayAgreesWithGpsd() async throws {
        let pair = try await SideBySide.start()
        let expected = SideBySide.relayedSentences
        let (theirs, ours) = try await Self.gpspipe(["-r"], pair, read: Self.sentences)
        await pair.stop()
        let (gpsdSentences, ourSentences) = (theirs.filter { !$0.hasPrefix("{") }, ours.filter { !$0.hasPrefix("{") })
        let (gpsdRelays, oursRelays) = (gpsdSentences == expected, ourSentences == gpsdSentences)
        #expect(gpsdRelays, "gpsd relayed \(Self.firstDifference(gpsdSentences, expected, other: "the log's"))")
        #expect(oursRelays, "the daemon relayed \(Self.firstDifference(ourSentences, gpsdSentences))")
    }

    /// `gpspipe -R` (`"raw":2`): for NMEA, gpsd's raw mode 2 sends each sentence as it came, as the relay does;
    /// what gpspipe prints after the JSON header is gpsd's, byte for byte.
    @Test func rawModeTwoAgreesWithGpsd() async throws {
        let pair = try await SideBySide.start()
        let expected = SideBySide.relayedSentences
        let (theirs, ours) = try await Self.gpspipe(["-R"], pair, read: Self.sentences)
        await pair.stop()
        let (gpsdSentences, ourSentences) = (theirs.filter { !$0.hasPrefix("{") }, ours.filter { !$0.hasPrefix("{") })
        let (gpsdSends, oursSends) = (gpsdSentences == expected, ourSentences == gpsdSentences)
        #expect(gpsdSends, "gpsd sent \(Self.firstDifference(gpsdSentences, expected, other: "the log's"))")
        #expect(oursSends, "the daemon sent \(Self.firstDifference(ourSentences, gpsdSentences))")
    }

    /// Where `ours` first differs from `gpsd`'s lines (or the `other` lines named so), for a failure message.
    static func firstDifference(_ ours: [String], _ gpsd: [String], other: String = "gpsd's") -> String {
        let index = zip(ours, gpsd).enumerated().first { $1.0 != $1.1 }?.offset ?? min(ours.count, gpsd.count)
        let at = { (lines: [String]) in index < lines.count ? lines[index].debugDescription : "nothing" }
        return "\(ours.count) lines, \(other) \(gpsd.count); line \(index): \(at(ours)), \(other) \(at(gpsd))"
    }

    /// The lines `reader` gives that are not JSON, through the log's ``SideBySide/endMarker`` (each within 60 s: a
    /// server that relays nothing ends the read there).
    static func sentences(_ reader: LineReader) async -> [String] {
        var sentences: [String] = []
        while sentences.count < 2_000, let line = await reader.nextLine(timeout: 60) {
            if !line.hasPrefix("{") { sentences.append(line) }
            if line.hasPrefix(SideBySide.endMarker) { break }
        }
        return sentences
    }
}
