import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import SingletondCore
import TestSupport
import Testing

/// What a `"nmea":true` watcher of the gpsd listener gets from an NMEA source that mixes sentences with garbage:
/// the sentences only, each byte for byte as read, its own line end included, as gpsd relays them.
@Suite(.hangBound) struct GPSDListenerSentenceTests {
    static let good = [
        NMEAChecksum.sentence("GPRMC,120000.00,A,4807.038,N,01131.000,E,0.0,0.0,221126,,,A"),
        NMEAChecksum.sentence("GPGGA,120000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", lineEnd: false)
            + "\n",
        "$GPGLL,4807.038,N,01131.000,E,120000.00,A,A\r\n",
        NMEAChecksum.sentence("GPRMC,120001.00,A,4807.038,N,01131.000,E,0.0,0.0,221126,,,A", lowercase: true),
    ]
    static let marker = NMEAChecksum.sentence("GPRMC,120002.00,A,4807.038,N,01131.000,E,0.0,0.0,221126,,,A")

    /// The good sentences, each followed by garbage: a bad checksum, a terminal's escape sequences (one in a line
    /// that starts with `$`), binary noise with line ends in it, a checksum that is not hex.
    static var feed: [UInt8] {
        var badChecksum = NMEAChecksum.sentence("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1", lineEnd: false)
        badChecksum.removeLast()
        badChecksum += badChecksum.hasSuffix("0") ? "1\r\n" : "0\r\n"
        var noise: [UInt8] = []
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2_000 { noise.append(UInt8(truncatingIfNeeded: generator.next())) }
        noise += Array("\n$GP\u{1}\u{2}\u{FF}\r\n".utf8)
        let garbage: [[UInt8]] = [
            Array(badChecksum.utf8),
            Array("\u{1B}]0;title\u{7}$GPTXT,01,01,02,hello\r\n".utf8),
            Array("$GPTXT,01,01,02,\u{1B}[31mred\u{1B}[0m\r\n".utf8),
            noise,
            Array("$GPTXT,01,01,02,x*ZZ\r\n".utf8),
        ]
        var bytes: [UInt8] = []
        for (sentence, junk) in zip(good, garbage) {
            bytes += Array(sentence.utf8)
            bytes += junk
        }
        bytes += Array(marker.utf8)
        return bytes
    }

    /// `nmea`, and `raw` 1 and 2, which gpsd 3.22 serves alike for an NMEA source (`raw_report` writes a textual
    /// packet as it came; measured side by side, gpsd sent the same bytes for all three).
    @Test(
        .singletons { $0.locationManager = LocationManager() },
        arguments: ["\"nmea\":true", "\"raw\":1", "\"raw\":2"])
    func aSentenceWatcherGetsExactlyTheGoodSentencesAsRead(_ member: String) async throws {
        try await GPSDListenerServiceTests.withService { _, port in
            let client = try #require(StreamClient(port: port))
            client.send("?WATCH={\"enable\":true,\(member)}\n")
            #expect(await client.readLine(containing: "\"class\":\"WATCH\"") != nil)
            let manager = await appSingletons.locationManager
            try await manager.start(
                .nmeaReplay(name: "mixed", bytes: Self.feed, pacing: .asFastAsPossible, loops: false))
            var received: [String] = []
            while let line = await client.readLine() {
                received.append(line + "\n")
                if line + "\n" == Self.marker { break }
            }
            #expect(received == Self.good + [Self.marker])
            await manager.shutdown()
        }
    }

    @Test(.singletons { $0.locationManager = LocationManager() })
    func aWatcherOfSentencesAndReportsGetsEachSentenceBeforeTheFixItCompletes() async throws {
        // Two sentences a cycle, 200 cycles: a read of 4 KiB holds about 30 cycles, whose fixes one hop delivers.
        let count = 200
        var feed = ""
        for second in 0..<count {
            let time = "12" + [second / 60, second % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined() + ".00"
            feed += NMEAChecksum.sentence("GPRMC,\(time),A,4807.038,N,01131.000,E,0.0,0.0,221126,,,A")
            feed += NMEAChecksum.sentence("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        }
        // The replay comes as fast as it is read, about 100 KB in all: the client's queue holds all of it, so that
        // the order is what is checked, not how many lines a client that reads more slowly than that loses.
        try await GPSDListenerServiceTests.withService(limits: ClientLimits(maximumQueuedBytes: 1 << 20)) { _, port in
            let client = try #require(StreamClient(port: port))
            client.send("?WATCH={\"enable\":true,\"json\":true,\"nmea\":true}\n")
            #expect(await client.readLine(containing: "\"class\":\"WATCH\"") != nil)
            let manager = await appSingletons.locationManager
            try await manager.start(
                .nmeaReplay(name: "cycles", bytes: Array(feed.utf8), pacing: .asFastAsPossible, loops: false))
            var sentences = 0
            var fixes = 0
            // The TPVs that came before the sentence that completed them.
            var early: [Int] = []
            while fixes < count + 1, let line = await client.readLine() {
                if line.hasPrefix("$") {
                    sentences += 1
                } else if line.contains("\"class\":\"TPV\"") {
                    if sentences < Self.sentencesBefore(fix: fixes) { early.append(fixes) }
                    fixes += 1
                }
            }
            #expect(fixes == count + 1 && sentences == 2 * count)
            #expect(early.isEmpty, "TPVs before their sentences: \(early)")
            await manager.shutdown()
        }
    }

    /// `timing` and `pps` as gpsd 3.22 sends them for an NMEA source: a `TOFF` for each new second of a fix (the
    /// sentence's time, and when it came), and TPVs with `rtime` and the other timing members. `?POLL;` answers a
    /// watcher with the device's reports and the last GST sentence's `GST` (sent to it as it came, as an HDT's `ATT`
    /// is), and a client that does not watch with `"active":0` and empty lists, as gpsd does. The source is a FIFO the
    /// test holds open, so that it is still active when the POLLs come.
    @Test(.singletons { $0.locationManager = LocationManager() })
    func timingPpsAndPollFollowGpsd() async throws {
        var feed = ""
        for second in 0..<4 {
            let time = "12000\(second).00"
            feed += NMEAChecksum.sentence("GPRMC,\(time),A,4807.038,N,01131.000,E,0.0,0.0,221126,,,A")
            feed += NMEAChecksum.sentence("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            if second == 1 { feed += NMEAChecksum.sentence("GPGST,\(time),1.5,,,,0.8,0.6,1.9") }
            if second == 1 { feed += NMEAChecksum.sentence("GPHDT,274.07,T") }
        }
        try await GPSDListenerServiceTests.withService { _, port in
            let client = try #require(StreamClient(port: port))
            let bystander = try #require(StreamClient(port: port))
            client.send("?WATCH={\"enable\":true,\"json\":true,\"timing\":true,\"pps\":true}\n")
            #expect(await client.readLine(containing: "\"class\":\"WATCH\"") != nil)
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let source = try HeldFIFO(directory.file("nmea"))
            defer { source.close() }
            let manager = await appSingletons.locationManager
            try await manager.start(.nmeaFile(path: source.path))
            try writeAll(source.fd, Array(feed.utf8))
            var lines: [String] = []
            while let line = await client.readLine() {
                lines.append(line)
                if line.contains("\"class\":\"TPV\""), line.contains("\"time\":\"2026-11-22T12:00:02.000Z\"") { break }
            }
            let objects = lines.compactMap(GPSDListenerServiceTests.object)
            let offsets = objects.filter { $0["class"]?.stringValue == "TOFF" }
            let tpvs = objects.filter { $0["class"]?.stringValue == "TPV" && $0["mode"]?.doubleValue ?? 0 >= 2 }
            #expect(
                offsets.map { $0["real_sec"]?.doubleValue }
                    == [1_795_348_800, 1_795_348_801, 1_795_348_802].map { Double($0) })
            #expect(offsets.allSatisfy { $0["real_nsec"]?.doubleValue == 0 && ($0["clock_sec"]?.doubleValue ?? 0) > 0 })
            #expect(!tpvs.isEmpty && tpvs.allSatisfy { $0["rtime"] != nil && $0["rollovers"]?.doubleValue == 2 })
            #expect(lines.contains { $0.contains("\"real_sec\":1795348800, \"real_nsec\":0,") }, "gpsd's spacing")
            // The GST sentence's report, in gpsd's form, after the sentence; the device is the listener's.
            let gst = try JSONValue(
                parsing: #"{"class":"GST","device":"/dev/scripted","time":"2026-11-22T12:00:01.000Z","rms":1.500,"#
                    + #""lat":0.800,"lon":0.600,"alt":1.900}"#)
            #expect(objects.filter { $0["class"]?.stringValue == "GST" } == [gst], "\(lines)")
            // The HDT's ATT, as gpsd 3.22 sends it for a stream of HDT without GST (checked under gpsfake).
            let att = try JSONValue(parsing: #"{"class":"ATT","device":"/dev/scripted","heading":274.070}"#)
            #expect(objects.filter { $0["class"]?.stringValue == "ATT" } == [att], "\(lines)")

            client.send("?POLL;\n")
            let poll = GPSDListenerServiceTests.object(await client.readLine(containing: "\"class\":\"POLL\""))
            #expect(poll?["active"]?.doubleValue == 1)
            #expect(poll?["tpv"]?.arrayValue?.count == 1 && poll?["sky"]?.arrayValue != nil)
            #expect(poll?["gst"]?.arrayValue == [gst], "the GST sentence's report")
            bystander.send("?POLL;\n")
            let other = GPSDListenerServiceTests.object(await bystander.readLine(containing: "\"class\":\"POLL\""))
            #expect(other?["active"]?.doubleValue == 0)
            #expect(["tpv", "gst", "sky"].map { other?[$0]?.arrayValue?.isEmpty } == [true, true, true])
            await manager.shutdown()
        }
    }

    /// The sentences (RMC, GGA, ...) that come before fix `n` is complete: the first cycle is reported after its RMC
    /// and after its GGA, as gpsd reports a first cycle, and each later cycle after its GGA.
    static func sentencesBefore(fix n: Int) -> Int { n == 0 ? 1 : 2 * n }
}
