import Foundation
import GNSSLocation
import GNSSLocationTesting
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import SingletondCore
import TestSupport
import Testing

/// The device as gpsd 3.22 describes it before and after the source's first data (checked against gpsd fed a TCP
/// source): opened but silent, DEVICES lists it without a driver and `?POLL;` counts it inactive; the DEVICE sent
/// at the first data is `activated` then, not at the opening; once a fix came but no satellite view, POLL's SKY has
/// `"nSat":0,"uSat":0`.
@Suite(.hangBound) struct GPSDListenerDeviceTests {
    /// Milliseconds since 1970 of a DEVICE's `activated`, `nil` if it is not a time.
    static func milliseconds(_ activated: JSONValue?) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return activated?.stringValue.flatMap(formatter.date(from:)).map {
            Int64(($0.timeIntervalSince1970 * 1_000).rounded())
        }
    }

    /// The wall clock in milliseconds since 1970, the clock `activated` is read from.
    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down)) }

    @Test(.singletons { $0.locationManager = ScriptedLocationManager(script: []) })
    func beforeItsFirstDataTheDeviceHasNoDriverAndIsActivatedByThatData() async throws {
        try await GPSDListenerServiceTests.withService { _, port in
            let client = try #require(StreamClient(port: port))
            #expect(GPSDListenerServiceTests.object(await client.readLine())?["class"]?.stringValue == "VERSION")
            client.send("?WATCH={\"enable\":true,\"json\":true}\n")
            #expect(await client.readLine(containing: "\"class\":\"WATCH\"") != nil)
            let manager = await appSingletons.locationManager
            try await manager.start(.nmeaFile(path: "/dev/scripted"))

            // The forwarder notes the opening when it reads the state change: ask until DEVICES lists the source.
            var opened: JSONValue?
            while opened == nil {
                client.send("?DEVICES;\n")
                let devices = GPSDListenerServiceTests.object(
                    await client.readLine(containing: "\"class\":\"DEVICES\""))
                opened = try #require(devices?["devices"]?.arrayValue).first
            }
            let device = try #require(opened)
            #expect(device["driver"] == nil && device["flags"] == nil, "no data yet: \(device)")
            let openedAt = try #require(Self.milliseconds(device["activated"]))
            client.send("?POLL;\n")
            let poll = try #require(GPSDListenerServiceTests.object(await client.readLine(containing: "POLL")))
            #expect(poll["active"]?.doubleValue == 0)
            #expect(["tpv", "gst", "sky"].allSatisfy { poll[$0]?.arrayValue?.isEmpty == true }, "\(poll)")

            // The first data comes after the wall clock moved past the opening's millisecond.
            while Self.now() <= openedAt { await Task.yield() }
            let before = Self.now()
            await manager.deliver(try #require(GPSDListenerServiceTests.fixes(1).first))
            let announced = GPSDListenerServiceTests.object(await client.readLine(containing: "\"class\":\"DEVICE\""))
            #expect(announced?["driver"]?.stringValue == "NMEA0183")
            let dataAt = try #require(Self.milliseconds(announced?["activated"]))
            #expect(dataAt >= before, "activated at the first data, not at the opening (\(openedAt))")

            client.send("?DEVICES;\n")
            let devices = GPSDListenerServiceTests.object(await client.readLine(containing: "\"class\":\"DEVICES\""))
            let listed = try #require(devices?["devices"]?.arrayValue?.first)
            #expect(listed["driver"]?.stringValue == "NMEA0183" && listed["flags"]?.doubleValue == 1)
            #expect(Self.milliseconds(listed["activated"]) == dataAt)
            client.send("?POLL;\n")
            let polled = try #require(GPSDListenerServiceTests.object(await client.readLine(containing: "POLL")))
            #expect(polled["active"]?.doubleValue == 1)
            let sky = try #require(polled["sky"]?.arrayValue?.first)
            #expect(sky["nSat"]?.doubleValue == 0 && sky["uSat"]?.doubleValue == 0, "\(polled)")
            await manager.shutdown()
        }
    }
}
