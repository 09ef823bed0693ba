import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// The listener's answers to `?WATCH` and `?POLL;`, compared with a real gpsd's (under gpsfake) on the same log, in
/// the same test: `enable` without `json`, the echo's `device`, and POLL for a watcher and for a client that does
/// not watch.
@Suite(.gpsdTools, .hangBound) struct GPSDListenerWatchRulesTests {
    /// What one server answered.
    struct Answers {
        /// The `WATCH` reply to `?WATCH={"enable":true}` and the lines up to the `VERSION` asked for after a POLL:
        /// nothing streams in between.
        var enableOnly: String
        var enableOnlyStreamed: [String]
        /// The POLL of that client, which watches, and of a client that does not.
        var watcherPoll: JSONValue?
        var bystanderPoll: JSONValue?
        /// The `WATCH` reply to a watch of the one device by name, the name replaced by `PATH`.
        var namedDevice: String
    }

    /// A line as a JSON object, gpsd's `\r` dropped.
    static func object(_ line: String?) -> JSONValue? {
        guard let line else { return nil }
        return try? JSONValue(parsing: line.hasSuffix("\r") ? String(line.dropLast()) : line)
    }

    /// Asks the server on `port`, whose device already streams, the questions of ``Answers``.
    static func answers(port: UInt16) async throws -> Answers {
        let watcher = try #require(StreamClient(port: port))
        watcher.send("?WATCH={\"enable\":true,\"json\":true}\n")
        let tpv = try #require(await watcher.readLine(containing: "\"class\":\"TPV\""), "the device streams")
        let path = try #require(Self.object(tpv)?["device"]?.stringValue)

        let client = try #require(StreamClient(port: port))
        client.send("?WATCH={\"enable\":true}\n")
        let enableOnly = try #require(await client.readLine(containing: "\"class\":\"WATCH\""))
        // Another TPV to the JSON watcher: the device sent more while this client was enabled.
        #expect(await watcher.readLine(containing: "\"class\":\"TPV\"") != nil)
        // And a SKY: an epoch's two TPVs (after its RMC and its GGA) come before its GSV series, so a POLL right
        // after them can find no SKY yet, at either server.
        #expect(await watcher.readLine(containing: "\"class\":\"SKY\"") != nil)
        client.send("?POLL;\n")
        let poll = try #require(await client.readLines(through: "\"class\":\"POLL\""))
        client.send("?VERSION;\n")
        let streamed = try #require(await client.readLines(through: "\"class\":\"VERSION\""))

        let bystander = try #require(StreamClient(port: port))
        bystander.send("?POLL;\n")
        let bystanderPoll = await bystander.readLine(containing: "\"class\":\"POLL\"")

        let named = try #require(StreamClient(port: port))
        named.send("?WATCH={\"enable\":true,\"json\":true,\"device\":\"\(path)\"}\n")
        let namedWatch = try #require(await named.readLine(containing: "\"class\":\"WATCH\""))
        return Answers(
            enableOnly: enableOnly, enableOnlyStreamed: poll.dropLast() + streamed.dropLast(),
            watcherPoll: Self.object(poll.last), bystanderPoll: Self.object(bystanderPoll),
            namedDevice: namedWatch.replacingOccurrences(of: path, with: "PATH"))
    }

    @Test func watchAndPollAnswerAsGpsdDoes() async throws {
        let gpsfake = try GPSDListenerGpspipeTests.tool("gpsfake")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let fake = try await GPSFake.start(gpsfake, ["-n", "-q", "-c", "0.01", GPSDListenerGpspipeTests.fixture])
        defer { fake.process.kill() }
        let theirs = try await Self.answers(port: fake.port)

        let source = try HeldFIFO(directory.file("nmea"))
        defer { source.close() }
        let port = try freePort()
        let daemon = try SingletondProcess([
            "--nmea", source.path, "--replay-speed", "1", "--listen", "\(port)", "--control",
            directory.file("c.sock"), "--output", "/dev/null",
        ])
        defer { daemon.kill() }
        #expect(await daemon.stderr.line(containing: "ready:", timeout: 60) != nil, "\(daemon.stderr.history)")
        let log = try Data(contentsOf: URL(fileURLWithPath: GPSDListenerGpspipeTests.fixture))
        // The log at its own pace, so that fixes still come while the clients ask.
        try writeAll(source.fd, log)
        let ours = try await Self.answers(port: port)

        #expect(ours.enableOnly == theirs.enableOnly)
        #expect(theirs.enableOnly.contains("\"json\":false"))
        #expect(ours.enableOnlyStreamed == theirs.enableOnlyStreamed, "gpsd streams nothing: \(theirs)")
        #expect(ours.namedDevice == theirs.namedDevice)
        #expect(theirs.namedDevice.contains("\"device\":\"PATH\""))
        for (mine, gpsds) in [(ours.watcherPoll, theirs.watcherPoll), (ours.bystanderPoll, theirs.bystanderPoll)] {
            #expect(mine?["active"] == gpsds?["active"])
            for list in ["tpv", "gst", "sky"] {
                #expect(mine?[list]?.arrayValue?.count == gpsds?[list]?.arrayValue?.count, "\(list)")
                #expect(
                    mine?[list]?.arrayValue?.first?["class"] == gpsds?[list]?.arrayValue?.first?["class"], "\(list)")
            }
        }
        #expect(theirs.bystanderPoll?["active"]?.doubleValue == 0)
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }
}
