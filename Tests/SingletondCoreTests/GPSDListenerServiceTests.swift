import GNSSLocation
import GNSSLocationTesting
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import SingletondCore
import TestSupport
import Testing

/// The gpsd listener's service in-process, fed by a scripted location manager installed as a user's test would:
/// what a watcher gets, in order, and what a client that does not read costs.
@Suite(.hangBound) struct GPSDListenerServiceTests {
    static let logger = LogWriter(minimumLevel: .error, journalFormat: false, clock: ContinuousClock())

    /// `count` fixes a second apart from 2026-01-01, each a little further north.
    static func fixes(_ count: Int) -> [Fix] {
        (0..<count).map { index in
            Fix(
                mode: .threeD, time: GNSSTime(millisecondsSince1970: 1_767_225_600_000 + Int64(index) * 1_000),
                latitude: 47.5 + Double(index) * 1e-6, longitude: 8.5)
        }
    }

    /// A line as a JSON object, gpsd's `\r` dropped.
    static func object(_ line: String?) -> JSONValue? {
        guard let line, line.hasSuffix("\r") else { return nil }
        return try? JSONValue(parsing: String(line.dropLast()))
    }

    /// Starts the service on a free port, fed by a ``ReportForwarder`` of the test's location manager; `body` runs
    /// with it and the port, and the service and the forwarder are stopped after.
    static func withService(
        limits: ClientLimits = ClientLimits(), _ body: (GPSDListenerService, UInt16) async throws -> Void
    ) async throws {
        let port = try freePort()
        let forwarder = ReportForwarder(devicePath: "/dev/scripted", includesSentences: true, logger: logger)
        await forwarder.start(from: await appSingletons.locationManager, output: nil, control: nil)
        let service = GPSDListenerService(
            address: ListenAddress(port: port), forwarder: forwarder, limits: limits, logger: logger)
        try await service.start()
        do {
            try await body(service, port)
        } catch {
            await service.shutdown()
            await forwarder.stop()
            throw error
        }
        await service.shutdown()
        await forwarder.stop()
    }

    @Test(.singletons { $0.locationManager = ScriptedLocationManager(script: GPSDListenerServiceTests.fixes(20)) })
    func aWatcherGetsTheDeviceEveryFixAndTheSatellites() async throws {
        try await Self.withService { _, port in
            let client = try #require(StreamClient(port: port))
            #expect(Self.object(await client.readLine())?["class"]?.stringValue == "VERSION")
            client.send("?WATCH={\"enable\":true,\"json\":true}\n")
            let devices = Self.object(await client.readLine())
            #expect(devices?["class"]?.stringValue == "DEVICES")
            #expect(devices?["devices"]?.arrayValue?.isEmpty == true, "no source is open yet")
            #expect(Self.object(await client.readLine())?["enable"]?.boolValue == true)

            let manager = await appSingletons.locationManager
            await manager.deliver(SkyView(satellites: [Satellite(prn: 5, elevation: 40, used: true)], hdop: 0.9))
            try await manager.start(.nmeaFile(path: "/dev/scripted"))
            var device: JSONValue?
            var times: [String] = []
            var skies = 0
            while times.count < 20 || skies == 0, let line = Self.object(await client.readLine()) {
                switch line["class"]?.stringValue {
                case "DEVICE":
                    #expect(device == nil && times.isEmpty, "one DEVICE, before the first TPV")
                    device = line
                case "TPV": times.append(line["time"]?.stringValue ?? "")
                case "SKY": skies += 1
                default: Issue.record("unexpected \(line)")
                }
            }
            #expect(device?["path"]?.stringValue == "/dev/scripted")
            #expect(device?["activated"]?.stringValue != nil)
            #expect(device?["flags"] == nil && device?["native"] == nil, "as gpsd's DEVICE at activation")
            #expect(times == Self.fixes(20).map { fix in fix.time.map { String(describing: $0) } ?? "" })

            client.send("?POLL;\n")
            let untilPoll = try #require(await client.readLines(through: "\"class\":\"POLL\""))
            skies += untilPoll.count { Self.object($0)?["class"]?.stringValue == "SKY" }
            #expect(skies == 1, "one SKY up to the POLL reply: the view did not change")
            let poll = try #require(Self.object(untilPoll.last))
            #expect(poll["active"]?.doubleValue == 1)
            #expect(poll["tpv"]?.arrayValue?.first?["time"]?.stringValue == times.last)
            #expect(poll["sky"]?.arrayValue?.first?["uSat"]?.doubleValue == 1)

            await manager.shutdown()
            let gone = Self.object(await client.readLine(containing: "DEVICE"))
            #expect(gone?["activated"]?.doubleValue == 0, "the source went")
        }
    }

    @Test(.singletons { $0.locationManager = ScriptedLocationManager(script: GPSDListenerServiceTests.fixes(20_000)) })
    func aClientThatDoesNotReadLosesItsOldestReportsAndIsToldHowMany() async throws {
        let limits = ClientLimits(maximumQueuedBytes: 8 * 1_024)
        try await Self.withService(limits: limits) { service, port in
            let slow = try #require(StreamClient(port: port, receiveBuffer: 4_096))
            let reader = try #require(StreamClient(port: port))
            for client in [slow, reader] {
                client.send("?WATCH={\"enable\":true,\"json\":true}\n")
                #expect(await client.readLine(containing: "\"class\":\"WATCH\"") != nil)
            }
            let manager = await appSingletons.locationManager
            try await manager.start(.nmeaFile(path: "/dev/scripted"))
            // The reader gets the last fix: the slow client delays nobody.
            let last = Self.fixes(20_000).last?.time.map { String(describing: $0) } ?? ""
            #expect(await reader.readLine(containing: last) != nil)
            let statistics = try #require(service.listener?.statistics)
            #expect(statistics.droppedReports > 0)
            #expect(statistics.clients == 2 && statistics.watching == 2)

            // The slow client reads on: it is told how many reports it lost, and what it gets is in order. Its
            // lines are read on one thread, up to the last fix: thousands of them wait in the kernel.
            let lines = try #require(await slow.readLines(through: last))
            let notice = try #require(lines.first { $0.contains("reads too slowly") })
            #expect(notice.contains("\"class\":\"ERROR\"") && notice.contains("singletond dropped"))
            let times = lines.compactMap { line -> String? in
                guard let object = Self.object(line), object["class"]?.stringValue == "TPV" else { return nil }
                return object["time"]?.stringValue
            }
            #expect(times == times.sorted() && Set(times).count == times.count, "in order, none twice")
            #expect(times.last == last, "the slow client catches up with the last fix")
        }
    }

    /// A client of the listener on `port` that sent `watch` and got the WATCH reply, with that reply.
    static func watched(port: UInt16, _ watch: String) async -> (StreamClient, String)? {
        guard let client = StreamClient(port: port) else { return nil }
        client.send(watch)
        guard let reply = await client.readLine(containing: "\"class\":\"WATCH\"") else { return nil }
        return (client, reply)
    }

    /// The test's clock, the registry's, which the listener times its idle clients on.
    static func testClock() async throws -> TestClock {
        try #require(await appSingletons.clock as? TestClock)
    }

    /// A client that sent nothing is closed once the idle timeout has passed on the registry's clock, counted from
    /// the accept; a watcher is never idle.
    @Test func aClientThatNeitherWatchesNorAsksIsClosedAndAWatcherStays() async throws {
        let clock = try await Self.testClock()
        try await Self.withService(limits: ClientLimits(idleTimeout: .seconds(60))) { service, port in
            let (watcher, _) = try #require(await Self.watched(port: port, "?WATCH={\"enable\":true,\"json\":true}\n"))
            let idle = try #require(StreamClient(port: port))
            #expect(await idle.readLine(containing: "\"class\":\"VERSION\"") != nil, "accepted")
            // The idle timer sleeps on the clock; nothing is closed before the timeout.
            await clock.sleepers(atLeast: 1)
            await clock.advance(by: .seconds(59))
            idle.send("?VERSION;\n")
            #expect(await idle.readLine(containing: "\"class\":\"VERSION\"") != nil, "not yet idle for a minute")
            await clock.advance(by: .seconds(60))
            #expect(await idle.readsToEnd(), "the idle client is closed")
            watcher.send("?VERSION;\n")
            #expect(await watcher.readLine(containing: "\"class\":\"VERSION\"") != nil, "the watcher stays")
            #expect(service.listener?.statistics.clients == 1)
        }
    }

    @Test func aClientThatEnablesWithoutJSONGetsNothingAndIsClosedWhenIdle() async throws {
        let clock = try await Self.testClock()
        try await Self.withService(limits: ClientLimits(idleTimeout: .seconds(60))) { service, port in
            let (watcher, _) = try #require(await Self.watched(port: port, "?WATCH={\"enable\":true,\"nmea\":true}\n"))
            let (squatter, line) = try #require(await Self.watched(port: port, "?WATCH={\"enable\":true}\n"))
            let reply = Self.object(line)
            #expect(reply?["enable"]?.boolValue == true && reply?["json"]?.boolValue == false)
            #expect(service.listener?.statistics.watching == 1, "enable alone streams nothing: not watching")
            await clock.sleepers(atLeast: 1)
            await clock.advance(by: .seconds(60))
            #expect(await squatter.readsToEnd(), "a client that gets nothing is closed when idle")
            watcher.send("?VERSION;\n")
            #expect(await watcher.readLine(containing: "\"class\":\"VERSION\"") != nil, "the nmea watcher stays")
            #expect(service.listener?.statistics.clients == 1 && service.listener?.statistics.watching == 1)
        }
    }

    @Test func requestsGetGpsdsRepliesAndBadOnesAnErrorOnAConnectionThatStaysUp() async throws {
        try await Self.withService { _, port in
            let client = try #require(StreamClient(port: port))
            #expect(Self.object(await client.readLine())?["proto_major"]?.doubleValue == 3)
            client.send("?VERSION;?DEVICES;\n?DEVICE;\n?FOO;\n?WATCH={\"enable\":true,\"device\":\"/dev/other\"}\n")
            client.send("?WATCH={\"enable\":true,\"nmea\":true,\"pps\":true}\n?POLL;\n")
            let replies = await blocking { (0..<8).compactMap { _ in Self.object(client.readLineNow(timeout: 60)) } }
            #expect(
                replies.map { $0["class"]?.stringValue ?? "" }
                    == ["VERSION", "DEVICES", "DEVICE", "ERROR", "ERROR", "DEVICES", "WATCH", "POLL"])
            #expect(replies[2]["activated"]?.doubleValue == 0, "no source is open")
            #expect(replies[3]["message"]?.stringValue == "Unrecognized request '?FOO;'")
            #expect(replies[4]["message"]?.stringValue == "No such device as /dev/other")
            #expect(replies[6]["nmea"]?.boolValue == true && replies[6]["pps"]?.boolValue == true)
            #expect(replies[6]["json"]?.boolValue == false, "nmea asked for, json not: as gpsd, no JSON reports")
            #expect(replies[7]["active"]?.doubleValue == 0)
            #expect(replies[7]["tpv"]?.arrayValue?.isEmpty == true)
        }
    }
}
