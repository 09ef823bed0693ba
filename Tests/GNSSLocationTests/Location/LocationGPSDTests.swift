import Foundation
import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// `LocationManager` reading a real gpsd (run by `gpsfake`): it delivers what gpsd's own client sees, and survives
/// gpsd going away and coming back.
/// Reconnection backs off on the live clock: these tests wait for a real gpsd to come back.
@Suite(.gpsdTools, .hangBound, .singletons { $0.clock = ContinuousClock() }) struct LocationGPSDTests {
    enum Log: String, CaseIterable, CustomTestStringConvertible {
        case multignss = "multignss-midnight.nmea"
        case legacyNoise = "legacy-gp-noise.nmea"
        case navika = "navika-100-fix.log"
        case skytraq = "skytraq-fix.log"

        var testDescription: String { rawValue }

        /// The project's fixtures, or a shared sample.
        var path: String {
            switch self {
            case .multignss, .legacyNoise: Fixtures.path(rawValue)
            case .navika, .skytraq: Machine.sharedSample(rawValue)
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

    /// No u-blox log: see ``GPSDEndToEndTests/Log/skytraq``.
    @Test(.sharedSamples, arguments: [Log.navika, .skytraq])
    func deliversEveryFixGpspipeSawOfASharedLog(log: Log) async throws {
        try await deliversEveryFixGpspipeSaw(log: log)
    }

    /// The manager watches first; gpspipe joins once the manager has a timed position, and leaves after
    /// ``pipeReports`` reports. What gpspipe saw is then a run of the broadcast the manager was already receiving, so
    /// the manager must deliver all of it, in order. The log loops (no `-1`) at 10 ms a sentence, so the stream
    /// cannot end before gpspipe has joined, however late a loaded machine starts it: the test waits only for events
    /// (a fix, gpspipe's exit, the fixes that complete the run) and ends gpsfake by killing its process group.
    @RegistryActor
    func deliversEveryFixGpspipeSaw(log: Log) async throws {
        let gpsfake = try GPSDTools.find("gpsfake")
        let gpspipe = try GPSDTools.find("gpspipe")
        let started = try await GPSFake.start(gpsfake, ["-p", "-q", "-c", "0.01", log.path])
        let (fake, port) = (started.process, started.port)
        defer { fake.kill() }
        let manager = LocationManager().withoutLiveTimeouts()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var fixes = FixReader(manager.updates(bufferSize: 100_000))
        try await manager.start(.gpsd(host: "127.0.0.1", port: port))
        // The bound only ends a hang: gpsd reports the log's first timed fix within a second.
        fixes = await Self.readUntilTimedFix(fixes, hangBound: .seconds(60))
        try #require(
            fixes.fixes.contains(where: Self.timed),
            """
            no timed position; the manager is \(manager.state), last problem \(manager.lastProblem ?? "none"); \
            gpsfake said: \(fake.errorOutput)
            """)

        let pipeOutput = TemporaryDirectory.uniquePath("gpspipe.json")
        defer { unlink(pipeOutput) }
        let pipe = try ChildProcess(
            gpspipe, ["-w", "-n", "\(Self.pipeReports)", "-o", pipeOutput, "127.0.0.1:\(port)"])
        defer { pipe.kill() }
        #expect(await pipe.wait() == .exited(0))
        var framer = GPSDLineFramer()
        let theirs = framer.append(Array(try Data(contentsOf: URL(fileURLWithPath: pipeOutput)))).compactMap {
            output -> TimeAndPosition? in
            guard case .line(let line) = output, case .tpv(let fix) = try? GPSDMessage(line: line) else { return nil }
            return TimeAndPosition(fix)
        }
        #expect(theirs.count(where: { $0.time != nil && $0.latitude != nil }) >= 10, "gpspipe saw too little")

        // The reports gpspipe saw last may still be on their way to the manager: read until its fixes hold the run,
        // or until it has had more than enough of them to.
        var ours = fixes.fixes.map(TimeAndPosition.init)
        let enough = ours.count + theirs.count + Self.pipeReports
        while !Self.contains(ours, run: theirs), ours.count < enough, let next = await fixes.read(1).first {
            ours.append(TimeAndPosition(next))
        }
        #expect(Self.contains(ours, run: theirs), "gpspipe saw \(theirs); the manager delivered \(ours)")
        #expect(fixes.dropped == 0)
        await manager.shutdown()
    }

    /// A fix with a time and a position.
    static let timed = { @Sendable (fix: Fix) in fix.time != nil && fix.latitude != nil }

    /// `fixes` after reading until a timed fix, or until `hangBound` passed without one (the read is cancelled).
    static func readUntilTimedFix(_ fixes: FixReader, hangBound: Duration) async -> FixReader {
        let reading = Task {
            var fixes = fixes
            while !fixes.fixes.contains(where: timed), await fixes.read(1).count == 1 {}
            return fixes
        }
        let bound = Task {
            try? await Task.sleep(for: hangBound)
            reading.cancel()
        }
        defer { bound.cancel() }
        return await reading.value
    }

    /// How many reports gpspipe reads before it leaves: about a pass of the shortest log.
    static let pipeReports = 120

    /// Whether `run` appears in `sequence`, contiguously.
    static func contains<Element: Equatable>(_ sequence: [Element], run: [Element]) -> Bool {
        guard !run.isEmpty else { return true }
        guard sequence.count >= run.count else { return false }
        return (0...(sequence.count - run.count)).contains { start in
            sequence[start..<(start + run.count)].elementsEqual(run)
        }
    }

    @Test @RegistryActor
    func gpsdKilledMidStreamThenRestartedResumesOnTheSameStreams() async throws {
        let gpsfake = try GPSDTools.find("gpsfake")
        let port = try freePort()
        // The log loops until gpsfake is stopped: with one pass (-1), a manager that connected after a stall of the
        // test process found the log played and waited for ever (seen under the address sanitizer).
        let arguments = ["-n", "-q", "-c", "0.05", Fixtures.path("multignss-midnight.nmea")]
        let first = try await GPSFake.start(gpsfake, arguments, port: port).process
        defer { first.terminate() }

        let manager = LocationManager().withoutLiveTimeouts()
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
        #expect(reason.contains("gpsd://127.0.0.1:\(port)"), "\(reason)")
        let beforeKill = manager.fixCount
        for index in streams.indices {
            await streams[index].read(beforeKill - streams[index].fixes.count)
        }
        let lastTimeBeforeKill = try #require(streams[0].fixes.compactMap(\.time).last)

        let second = try await GPSFake.start(gpsfake, arguments, port: port).process
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
        await manager.shutdown()
        #expect(manager.state == .idle)
    }

    @Test @RegistryActor
    func tenSubscribersSurviveRepeatedRestartsOverOneConnectionAtATime() async throws {
        let gpsfake = try GPSDTools.find("gpsfake")
        let port = try freePort()
        // The log loops until gpsfake is stopped: a manager that connects late (a loaded machine) still gets fixes;
        // with one pass it could find the log already played and wait for ever (stress round 2, thread sanitizer).
        let arguments = ["-n", "-q", "-c", "0.02", Fixtures.path("multignss-midnight.nmea")]
        let manager = LocationManager().withoutLiveTimeouts()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var states = StateWatch(manager)
        var streams = (0..<10).map { _ in FixReader(manager.updates(bufferSize: 1_000)) }
        try await manager.start(.gpsd(host: "127.0.0.1", port: port))

        for round in 1...4 {
            let fake = try await GPSFake.start(gpsfake, arguments, port: port).process
            defer { fake.terminate() }
            // Every subscriber gets fixes from this gpsd: what they had from the last one was read below.
            for index in streams.indices {
                #expect(await streams[index].read(3).count == 3, "round \(round), subscriber \(index)")
            }
            #expect(manager.subscriberCount == 10)
            // The connections to the gpsds before this one were all closed: none is left behind per restart.
            let connected = try LoopbackQueues.socketsConnected(toPort: port)
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
        await manager.shutdown()
        #expect(manager.state == .idle)
    }
}
