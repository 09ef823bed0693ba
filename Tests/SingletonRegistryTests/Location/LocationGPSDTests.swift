import Foundation
import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import TestSupport
import Testing

/// `LocationManager` reading a real gpsd (run by `gpsfake`): it delivers what gpsd's own client sees, and survives
/// gpsd going away and coming back.
@Suite(.gpsdTools, .timeLimit(.minutes(2))) struct LocationGPSDTests {
    enum Log: String, CaseIterable, CustomTestStringConvertible {
        case multignss = "multignss-midnight.nmea"
        case legacyNoise = "legacy-gp-noise.nmea"
        case ubloxLEA4H = "ublox-lea-4h.log"
        case navika = "navika-100-fix.log"
        case skytraq = "skytraq-fix.log"

        var testDescription: String { rawValue }

        /// The project's fixtures, or a shared sample.
        var path: String {
            switch self {
            case .multignss, .legacyNoise: Fixtures.path(rawValue)
            case .ubloxLEA4H, .navika, .skytraq: Machine.sharedSample(rawValue)
            }
        }
    }

    /// What the user compares: when and where.
    struct TimeAndPosition: Hashable, CustomStringConvertible {
        var time: Int64?
        var latitude: Double?
        var longitude: Double?

        init(_ fix: Fix) {
            time = fix.time?.millisecondsSince1970
            latitude = fix.latitude
            longitude = fix.longitude
        }

        var description: String {
            "\(time.map(String.init) ?? "-") \(latitude ?? .nan),\(longitude ?? .nan)"
        }
    }

    @Test(arguments: [Log.multignss, .legacyNoise])
    func deliversEveryFixGpspipeSawOfAFixture(log: Log) async throws {
        try await deliversEveryFixGpspipeSaw(log: log)
    }

    @Test(.sharedSamples, arguments: [Log.ubloxLEA4H, .navika, .skytraq])
    func deliversEveryFixGpspipeSawOfASharedLog(log: Log) async throws {
        try await deliversEveryFixGpspipeSaw(log: log)
    }

    @RegistryActor
    func deliversEveryFixGpspipeSaw(log: Log) async throws {
        let gpsfake = try GPSDTools.find("gpsfake")
        let gpspipe = try GPSDTools.find("gpspipe")
        let logPath = log.path
        // -1 -p: one pass, then gpsfake sees the device go, stops its gpsd and exits, closing every client. 100 ms a
        // sentence makes the shortest log last 10 s, so a gpspipe that starts late on a loaded machine still sees it.
        let started = try await GPSDTools.startFake(gpsfake, ["-1", "-p", "-q", "-c", "0.1", logPath])
        let (fake, port) = (started.process, started.port)
        defer { fake.terminate() }

        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var states = StateWatch(manager)
        var fixes = FixReader(manager.updates(bufferSize: 100_000))
        // gpsfake starts feeding the log 1.4 s after its own client connected, so both clients below are usually
        // watching before the first report; gpspipe joins after us in any case, which is all the comparison needs.
        try await manager.start(.gpsd(host: "127.0.0.1", port: port))
        await states.next { $0.name == "waiting" }

        // We are connected and our WATCH is on its way: start gpsd's own client on the same session.
        let pipeOutput = TemporaryDirectory.uniquePath("gpspipe.json")
        defer { unlink(pipeOutput) }
        let pipe = try ChildProcess(gpspipe, ["-w", "-o", pipeOutput, "--seconds", "90", "127.0.0.1:\(port)"])
        defer { pipe.terminate() }

        let reason = try #require(
            await states.nextReconnectReason(),
            "the end of gpsd must make the manager reconnect; gpsfake said: \(fake.errorOutput)")
        #expect(reason.hasPrefix("gpsd 127.0.0.1:\(port) closed the connection"), "\(reason)")
        await manager.stop()
        await fixes.read(manager.fixCount - fixes.fixes.count)
        #expect(await pipe.wait() == .exited(0))
        _ = await fake.wait()
        #expect(fixes.dropped == 0)

        var framer = GPSDLineFramer()
        let theirs = framer.append(Array(try Data(contentsOf: URL(fileURLWithPath: pipeOutput)))).compactMap {
            output -> Fix? in
            guard case .line(let line) = output, case .tpv(let fix) = try? GPSDMessage(line: line) else { return nil }
            return fix
        }
        #expect(theirs.count(where: { $0.latitude != nil && $0.time != nil }) >= 3, "gpspipe saw too little")
        // gpspipe joined after us, so it saw the same broadcast or its tail: we must have delivered all of it.
        let ours = fixes.fixes.map(TimeAndPosition.init)
        #expect(ours.count >= theirs.count)
        #expect(Array(ours.suffix(theirs.count)) == theirs.map(TimeAndPosition.init))
    }

    @Test @RegistryActor
    func gpsdKilledMidStreamThenRestartedResumesOnTheSameStreams() async throws {
        let gpsfake = try GPSDTools.find("gpsfake")
        let port = try freePort()
        let arguments = ["-1", "-q", "-c", "0.05", Fixtures.path("multignss-midnight.nmea")]
        let first = try await GPSDTools.startFake(gpsfake, arguments, port: port).process
        defer { first.terminate() }

        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var states = StateWatch(manager)
        var streams = [
            FixReader(manager.updates(bufferSize: 1_000)), FixReader(manager.updates(bufferSize: 1_000)),
        ]
        try await manager.start(.gpsd(host: "127.0.0.1", port: port))
        // Read until a timed position arrived (gpsd's first reports of a log have none); a stream that ends first
        // fails the test once instead of spinning until the time limit.
        while !streams[0].fixes.contains(where: { $0.time != nil && $0.latitude != nil }),
            await streams[0].read(1).count == 1
        {}
        try #require(
            streams[0].fixes.contains(where: { $0.time != nil && $0.latitude != nil }),
            "no timed position from the first gpsd: \(first.errorOutput)")
        await streams[1].read(streams[0].fixes.count)
        await states.next { $0.name == "waiting" }

        // gpsfake's SIGTERM handler kills its gpsd.
        _ = await first.terminateAndWait(hangBound: ChildProcess.gpsfakeTerminationBound)
        let reason = try #require(await states.nextReconnectReason())
        #expect(reason.contains("gpsd 127.0.0.1:\(port)"), "\(reason)")
        let beforeKill = manager.fixCount
        for index in streams.indices {
            await streams[index].read(beforeKill - streams[index].fixes.count)
        }
        let lastTimeBeforeKill = try #require(streams[0].fixes.compactMap(\.time).last)

        let second = try await GPSDTools.startFake(gpsfake, arguments, port: port).process
        defer { second.terminate() }
        await states.next { $0.name == "waiting" }
        for index in streams.indices {
            let resumed = await streams[index].read(6)
            #expect(resumed.count == 6)
            // The new gpsd replays the log from its start, so its times go back.
            let firstTime = try #require(resumed.compactMap(\.time).first)
            #expect(firstTime <= lastTimeBeforeKill)
            #expect(streams[index].dropped == 0)
        }
        #expect(streams[0].fixes == streams[1].fixes)
        #expect(manager.source == .gpsd(host: "127.0.0.1", port: port))
        await manager.stop()
        #expect(manager.state == .idle)
    }

    @Test @RegistryActor
    func tenSubscribersSurviveRepeatedRestartsOverOneConnectionAtATime() async throws {
        let gpsfake = try GPSDTools.find("gpsfake")
        let port = try freePort()
        // The log loops until gpsfake is stopped: a manager that connects late (a loaded machine) still gets fixes;
        // with one pass it could find the log already played and wait for ever (stress round 2, thread sanitizer).
        let arguments = ["-q", "-c", "0.02", Fixtures.path("multignss-midnight.nmea")]
        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var states = StateWatch(manager)
        var streams = (0..<10).map { _ in FixReader(manager.updates(bufferSize: 1_000)) }
        try await manager.start(.gpsd(host: "127.0.0.1", port: port))

        for round in 1...4 {
            let fake = try await GPSDTools.startFake(gpsfake, arguments, port: port).process
            defer { fake.terminate() }
            // Every subscriber gets fixes from this gpsd: what they had from the last one was read below.
            for index in streams.indices {
                #expect(await streams[index].read(3).count == 3, "round \(round), subscriber \(index)")
            }
            #expect(manager.subscriberCount == 10)
            // The connections to the gpsds before this one were all closed: none is left behind per restart.
            let connected = try GPSDTools.socketsConnected(toPort: port)
            #expect(connected == 1, "round \(round): \(connected)")

            // gpsfake's SIGTERM handler kills its gpsd.
            _ = await fake.terminateAndWait(hangBound: ChildProcess.gpsfakeTerminationBound)
            // The loss of this connection (not one of the refused connects while gpsd was starting).
            await states.next {
                guard case .reconnecting(_, _, let reason, _) = $0 else { return false }
                return !reason.hasPrefix("cannot connect")
            }
            // The connection is over, so everything it brought has been delivered: read it all.
            let delivered = manager.fixCount
            for index in streams.indices {
                await streams[index].read(delivered - streams[index].fixes.count)
                #expect(streams[index].fixes.count == delivered, "round \(round), subscriber \(index)")
                #expect(streams[index].dropped == 0)
            }
        }
        #expect(manager.subscriberCount == 10)
        #expect(streams.allSatisfy { $0.fixes.map(\.time) == streams[0].fixes.map(\.time) })
        await manager.stop()
        #expect(manager.state == .idle)
    }
}
