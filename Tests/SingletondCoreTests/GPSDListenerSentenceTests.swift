import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import SingletondCore
import TestSupport
import Testing

/// What a `"nmea":true` watcher of the gpsd listener gets from an NMEA source that mixes sentences with garbage:
/// the sentences only, each byte for byte as read, its own line end included, as gpsd relays them.
@Suite(.timeLimit(.minutes(2))) struct GPSDListenerSentenceTests {
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

    @Test(.singletons { $0.locationManager = LocationManager() })
    func aSentenceWatcherGetsExactlyTheGoodSentencesAsRead() async throws {
        try await GPSDListenerServiceTests.withService { _, port in
            let client = try #require(StreamClient(port: port))
            client.send("?WATCH={\"enable\":true,\"nmea\":true}\n")
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
        try await GPSDListenerServiceTests.withService { _, port in
            let client = try #require(StreamClient(port: port))
            client.send("?WATCH={\"enable\":true,\"json\":true,\"nmea\":true}\n")
            #expect(await client.readLine(containing: "\"class\":\"WATCH\"") != nil)
            let manager = await appSingletons.locationManager
            try await manager.start(
                .nmeaReplay(name: "cycles", bytes: Array(feed.utf8), pacing: .asFastAsPossible, loops: false))
            var sentences = 0
            var fixes = 0
            // The TPVs that came before their cycle's RMC and GGA.
            var early: [Int] = []
            while fixes < count, let line = await client.readLine() {
                if line.hasPrefix("$") {
                    sentences += 1
                } else if line.contains("\"class\":\"TPV\"") {
                    if sentences < 2 * (fixes + 1) { early.append(fixes) }
                    fixes += 1
                }
            }
            #expect(fixes == count && sentences == 2 * count)
            #expect(early.isEmpty, "TPVs before their sentences: \(early)")
            await manager.shutdown()
        }
    }
}
