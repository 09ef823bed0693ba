import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// The device and `?POLL;` before the source's first data and after the log, asked of the daemon's gpsd listener and
/// of a real gpsd whose device is open but silent (``SideBySide``): the same members and the same counts.
@Suite(.gpsdTools, .hangBound) struct GPSDSideBySideDeviceTests {
    /// The members of the first device `?DEVICES;` lists, asking until it lists one; and the `?POLL;` reply after.
    static func deviceAndPoll(_ client: StreamClient) async throws -> (device: Set<String>, poll: JSONValue) {
        var device: JSONValue?
        while device == nil {
            client.send("?DEVICES;\n")
            let devices = try #require(
                SideBySide.object(await client.readLine(containing: "\"class\":\"DEVICES\"") ?? ""))
            device = try #require(devices["devices"]?.arrayValue).first
        }
        client.send("?POLL;\n")
        let poll = try #require(SideBySide.object(await client.readLine(containing: "\"class\":\"POLL\"") ?? ""))
        return (Set(try #require(device?.objectValue).map(\.key)), poll)
    }

    /// A client of `port` that watches.
    static func watcher(port: UInt16) async throws -> StreamClient {
        let client = try #require(StreamClient(port: port))
        client.send("?WATCH={\"enable\":true,\"json\":true}\n")
        #expect(await client.readLine(containing: "\"class\":\"WATCH\"") != nil)
        return client
    }

    @Test func beforeTheFirstDataAndAfterTheLogTheDeviceAndPollAreGpsds() async throws {
        let pair = try await SideBySide.start()
        let (theirs, ours) = (
            try await Self.watcher(port: pair.gpsdPort), try await Self.watcher(port: pair.daemonPort)
        )
        let (gpsdSilent, ourSilent) = (try await Self.deviceAndPoll(theirs), try await Self.deviceAndPoll(ours))
        #expect(gpsdSilent.device == ["class", "path", "activated"], "gpsd's device before data")
        #expect(ourSilent.device == gpsdSilent.device)
        #expect(gpsdSilent.poll["active"]?.doubleValue == 0)
        for member in ["active", "tpv", "gst", "sky"] {
            #expect(ourSilent.poll[member] == gpsdSilent.poll[member], "POLL \(member) before data")
        }

        try await pair.waitForWatchers()
        try pair.feedLog()
        for client in [theirs, ours] {
            #expect(await client.readLine(containing: SideBySide.lastTime) != nil)
        }
        let (gpsdFed, ourFed) = (try await Self.deviceAndPoll(theirs), try await Self.deviceAndPoll(ours))
        await pair.stop()
        #expect(gpsdFed.device.contains("driver") && gpsdFed.device.contains("flags"), "\(gpsdFed.device)")
        #expect(ourFed.device == gpsdFed.device)
        #expect(ourFed.poll["active"] == gpsdFed.poll["active"])
    }
}
