import Dispatch
import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// Network peers that go silent, on a test clock: `silenceTimeout` notices a gpsd's stall at its exact instant and the
/// manager reconnects, while a gpsd that is quiet but answers `?VERSION;`, or an NMEA source, is left alone.
@Suite(.hangBound) struct LocationStallTests {
    static let banner = LocationFaultTests.banner
    static let tpv = LocationFaultTests.tpv
    static let noFix = LocationFaultTests.noFixTPV
    /// What gpsd 3.22 answers a WATCH with when it has no device.
    static let noDevices =
        #"{"class":"DEVICES","devices":[]}"# + "\r\n"
        + #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#
        + "\r\n"

    /// The stall of a gpsd on `port` that left `?VERSION;` unanswered, with a silence timeout of 10 s.
    static func unansweredProbe(port: UInt16) -> String {
        "gpsd://127.0.0.1:\(port) sent nothing for 10 s and did not answer ?VERSION; within 10 s (stalled)"
    }

    /// How long a peer here keeps a connection open at most: the tests time the silence on the test clock, and
    /// the manager closes the connection when it is done, so this only bounds a peer whose test hung. Long, so that a
    /// test starved of the CPU (a loaded machine under the thread sanitizer) never sees its peer leave first.
    static let peerBound = 300

    /// A peer that sends `greeting` on each connection and then nothing, and tells `requests` every request line
    /// it is sent.
    static func silentPeer(after greeting: [UInt8], requests: AsyncStream<String>.Continuation) throws -> LoopbackPeer {
        try LoopbackPeer { connection in
            try? writeAll(connection, greeting)
            LoopbackPeer.serveRequests(connection, seconds: Self.peerBound) { request in
                requests.yield(request)
                return nil
            }
        }
    }

    /// gpsd that says nothing: at +10 s of silence it is asked `?VERSION;`, and at +20 s, unanswered, the connection
    /// is given up as stalled; the reconnect is then timed like any other.
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aPeerThatSendsNothingIsProbedAtTheTimeoutAndStalledOneTimeoutLater() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let (requests, requested) = AsyncStream.makeStream(of: String.self)
        let peer = try Self.silentPeer(after: [], requests: requested)
        defer { peer.close() }
        let manager = LocationManager()
        manager.silenceTimeout = .seconds(10)
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))
        var lines = requests.makeAsyncIterator()
        #expect(await lines.next(isolation: #isolation)?.hasPrefix("?WATCH") == true)

        // The silence is timed from the moment the reader waits for the peer.
        await clock.sleepers(atLeast: 1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(10))])
        await clock.advance(by: .seconds(10))
        #expect(await lines.next(isolation: #isolation) == "?VERSION;")
        await clock.sleepers(atLeast: 1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(20))])
        await clock.advance(by: .seconds(10))

        let (attempt, reason, retryIn) = try #require(await states.nextReconnect())
        #expect(attempt == 1)
        #expect(reason == Self.unansweredProbe(port: peer.port))
        #expect(manager.lastProblem == reason)
        #expect(clock.now == TestClock.Instant(offset: .seconds(20)))
        await clock.sleepers(atLeast: 1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(20)).advanced(by: retryIn)])
        await manager.shutdown()
        #expect(manager.state == .idle)
    }

    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aGpsdThatFallsSilentAfterAFixIsAStallAndTheNextConnectionDelivers() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let (requests, requested) = AsyncStream.makeStream(of: String.self)
        let peer = try Self.silentPeer(
            after: Array((Self.banner + Self.noDevices + Self.tpv).utf8), requests: requested)
        defer { peer.close() }
        let manager = LocationManager()
        manager.silenceTimeout = .seconds(10)
        manager.staleAfter = .seconds(3_600)
        var fixes = FixReader(manager.updates())
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        #expect(await fixes.read(1).first?.latitude == 48.1173)
        // The silence watch and the staleness watch.
        await clock.sleepers(atLeast: 2)
        #expect(clock.pendingDeadlines.first == TestClock.Instant(offset: .seconds(10)))
        await clock.advance(by: .seconds(10))
        var lines = requests.makeAsyncIterator()
        while let line = await lines.next(isolation: #isolation), line != "?VERSION;" {}
        await clock.sleepers(atLeast: 2)
        await clock.advance(by: .seconds(10))
        let (attempt, reason, retryIn) = try #require(await states.nextReconnect())
        #expect(attempt == 1)
        #expect(reason == Self.unansweredProbe(port: peer.port))
        // The next connection delivers again, on the same stream.
        await clock.sleepers(atLeast: 2)
        await clock.advance(by: retryIn)
        #expect(await fixes.read(1).first?.latitude == 48.1173)
        await manager.shutdown()
    }

    /// gpsd with no receiver is quiet but answers `?VERSION;`: the answer ends the silence, so the connection is kept.
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aQuietGpsdThatAnswersTheProbeIsNotAStall() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let connections = SanitizerVisibleMutex(0)
        // The answer carries a report without a fix, so that the test sees when it has been read.
        let peer = try LoopbackPeer { connection in
            connections.withLock { $0 += 1 }
            try? writeAll(connection, Array(Self.banner.utf8))
            LoopbackPeer.serveRequests(connection, seconds: Self.peerBound) { request in
                if request.hasPrefix("?WATCH") { return Self.noDevices }
                return request == "?VERSION;" ? Self.banner + Self.noFix : nil
            }
        }
        defer { peer.close() }
        let manager = LocationManager()
        manager.silenceTimeout = .seconds(10)
        var fixes = FixReader(manager.updates())
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        await clock.sleepers(atLeast: 1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(10))])
        await clock.advance(by: .seconds(10))
        #expect(await fixes.read(1).first?.mode == .noFix, "the probe was answered")
        await clock.sleepers(atLeast: 1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(20))])
        await clock.advance(by: .seconds(10))
        // Had the answer not counted, the connection would be given up now, before anything sleeps again.
        await clock.sleepers(atLeast: 1)
        #expect(manager.state == .waitingForFix(source: "gpsd://127.0.0.1:\(peer.port)"))
        #expect(manager.lastProblem == nil)
        #expect(connections.withLock { $0 } == 1, "the quiet connection was given up")
        await manager.shutdown()
    }

    /// The second of a fix from ``LocationTesting/cycles(from:count:)``: its cycle's number, below 60.
    static func second(of fix: Fix) -> Int64? {
        fix.time.map { $0.millisecondsSince1970 / 1_000 % 60 }
    }

    /// An NMEA source has nothing to ask and is not timed: as gpsd keeps a quiet device, the connection outlives any
    /// silence on the clock, and the next sentence continues the cycle the silence left open. The peer sends three
    /// cycles, then, once the clock has gone past what used to be a stall, two more on the same connection; a
    /// reconnect would be seen as a second connection starting again at cycle 0.
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aQuietNMEAStreamIsKeptAndItsNextSentenceContinuesTheCycle() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let more = DispatchSemaphore(value: 0)
        let connections = SanitizerVisibleMutex(0)
        let peer = try LoopbackPeer { connection in
            let first = connections.withLock { count in
                count += 1
                return count == 1
            }
            try? writeAll(connection, LocationTesting.cycles(from: 0, count: 3))
            if first {
                more.wait()
                try? writeAll(connection, LocationTesting.cycles(from: 3, count: 2))
            }
            LoopbackPeer.serveRequests(connection, seconds: Self.peerBound)
        }
        defer { peer.close() }
        let manager = LocationManager()
        manager.silenceTimeout = .seconds(10)
        manager.staleAfter = .seconds(3_600)
        var fixes = FixReader(manager.updates())
        try await manager.start(.nmeaTCP(host: "127.0.0.1", port: peer.port))

        // The first cycle is reported after each of its sentences, as gpsd reports it.
        while let fix = await fixes.read(1).first, Self.second(of: fix) != 1 {}
        // Only the staleness watch sleeps; the clock goes past two silence timeouts.
        await clock.sleepers(atLeast: 1)
        try #require(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(3_600))])
        await clock.advance(by: .seconds(20))
        more.signal()
        // Cycle 2, which the silence left open, ends at cycle 3's RMC, on the same connection.
        #expect(await fixes.read(2).map(Self.second) == [2, 3])
        #expect(connections.withLock { $0 } == 1, "the quiet connection was given up")
        #expect(manager.lastProblem == nil)
        #expect(manager.state == .fixed(source: "tcp://127.0.0.1:\(peer.port)"))
        await manager.shutdown()
    }

    /// A megabyte without a line end, then silence. The clock stays frozen until the kernel says every byte has
    /// been read (the peer's writes returned, and both ends of the connection have empty queues in `/proc/net/tcp`):
    /// before that, a silence the watch times could be bytes still in flight over loopback. Then each time the watch
    /// sleeps, the clock jumps a timeout, until the manager gives the connection up; how many jumps that takes
    /// depends on where the reader was, the reason does not.
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aMegabyteLineThatNeverEndsIsAStallNamedAsSuch() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let (written, wrote) = AsyncStream.makeStream(of: Void.self)
        let unended = Array(Self.banner.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let peer = try LoopbackPeer { connection in
            try? writeAll(connection, unended)
            wrote.yield()
            LoopbackPeer.serveRequests(connection, seconds: Self.peerBound) { _ in nil }
        }
        defer { peer.close() }
        let manager = LocationManager()
        manager.silenceTimeout = .seconds(10)
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        for await _ in written { break }
        try await LoopbackQueues.untilDrained(port: peer.port)
        let driver = Task {
            while !Task.isCancelled {
                await clock.sleepers(atLeast: 1)
                await clock.advance(by: .seconds(10))
            }
        }
        defer { driver.cancel() }
        let reason = try #require(await states.nextReconnectReason())
        driver.cancel()
        #expect(
            reason.hasSuffix(
                "(stalled); last problem: gpsd sent a line of 1048576 bytes without an end, over the 10240-byte limit; "
                    + "dropped it"), "\(reason)")
        await manager.shutdown()
    }
}
