import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import TestSupport
import Testing

/// Network peers that go silent: `silenceTimeout` notices the stall and the manager reconnects, while a gpsd that is
/// quiet but answers `?VERSION;` is left alone.
@Suite(.timeLimit(.minutes(1))) struct LocationStallTests {
    static let banner = LocationFaultTests.banner
    static let tpv = LocationFaultTests.tpv
    /// What gpsd 3.22 answers a WATCH with when it has no device.
    static let noDevices =
        #"{"class":"DEVICES","devices":[]}"# + "\r\n"
        + #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#
        + "\r\n"

    /// A peer that sends `greeting` on each connection and then nothing, ignoring every request, and counts its
    /// connections.
    static func silentPeer(after greeting: [UInt8], connections: ObservedMutex<Int>) throws -> LoopbackPeer {
        try LoopbackPeer { connection in
            connections.withLock { $0 += 1 }
            try? writeAll(connection, greeting)
            LoopbackPeer.serveRequests(connection)
        }
    }

    @Test @RegistryActor
    func aPeerThatSendsNothingIsAStall() async throws {
        let connections = ObservedMutex(0)
        let peer = try Self.silentPeer(after: [], connections: connections)
        defer { peer.close() }
        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        manager.silenceTimeout = .milliseconds(200)
        var states = StateWatch(manager)
        let started = ContinuousClock.now
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        let reason = try #require(await states.nextReconnectReason())
        #expect(
            reason == "gpsd 127.0.0.1:\(peer.port) sent nothing for 200 ms and did not answer ?VERSION; within 200 ms "
                + "(stalled)")
        #expect(ContinuousClock.now - started >= .milliseconds(400), "a stall is two timeouts of silence")
        #expect(manager.lastProblem == reason)
        // Every connection stalls the same way, and each is given up: only an established connection can stall, so
        // the same reason again is the second connection's (the peer's thread may not have counted it yet).
        #expect(await states.nextReconnectReason() == reason)
        await manager.stop()
        #expect(manager.state == .idle)
    }

    @Test @RegistryActor
    func aGpsdThatFallsSilentAfterAFixIsAStallAndTheNextConnectionDelivers() async throws {
        let connections = ObservedMutex(0)
        let peer = try Self.silentPeer(
            after: Array((Self.banner + Self.noDevices + Self.tpv).utf8), connections: connections)
        defer { peer.close() }
        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        manager.silenceTimeout = .milliseconds(200)
        var fixes = FixReader(manager.updates())
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        #expect(await fixes.read(1).first?.latitude == 48.1173)
        let reason = try #require(await states.nextReconnectReason())
        #expect(reason.hasPrefix("gpsd 127.0.0.1:\(peer.port) sent nothing for 200 ms"), "\(reason)")
        #expect(reason.hasSuffix("(stalled)"), "\(reason)")
        // The next connection delivers again, on the same stream.
        #expect(await fixes.read(1).first?.latitude == 48.1173)
        #expect(connections.withLock { $0 } >= 2)
        await manager.stop()
    }

    @Test @RegistryActor
    func aQuietGpsdThatAnswersTheProbeIsNotAStall() async throws {
        let connections = ObservedMutex(0)
        let (probes, probed) = AsyncStream.makeStream(of: Void.self)
        // gpsd with no receiver: it says nothing after its answer to WATCH, but answers ?VERSION; every time.
        let peer = try LoopbackPeer { connection in
            connections.withLock { $0 += 1 }
            try? writeAll(connection, Array(Self.banner.utf8))
            LoopbackPeer.serveRequests(connection) { request in
                if request.hasPrefix("?WATCH") { return Self.noDevices }
                guard request == "?VERSION;" else { return nil }
                probed.yield()
                return Self.banner
            }
        }
        defer { peer.close() }
        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        // Three seconds for gpsd's answer: this test is about the answer counting, not about how fast it comes, and
        // in the address-sanitizer run it shares two cores with a daemon taking a flood of 1,000 connections (a
        // one-second window was missed there).
        manager.silenceTimeout = .seconds(3)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        // Two probes answered: two timeouts of quiet, each ended by gpsd's answer.
        var iterator = probes.makeAsyncIterator()
        for _ in 0..<2 { await iterator.next(isolation: #isolation) }
        #expect(connections.withLock { $0 } == 1, "the quiet connection was given up")
        #expect(manager.state == .waitingForFix(source: "gpsd 127.0.0.1:\(peer.port)"))
        #expect(manager.lastProblem == nil)
        await manager.stop()
    }

    @Test @RegistryActor
    func anNMEAStreamThatFallsSilentIsAStall() async throws {
        let connections = ObservedMutex(0)
        let peer = try Self.silentPeer(after: LocationTesting.epochs(from: 0, count: 3), connections: connections)
        defer { peer.close() }
        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        manager.silenceTimeout = .milliseconds(200)
        var fixes = FixReader(manager.updates())
        var states = StateWatch(manager)
        try await manager.start(.nmeaTCP(host: "127.0.0.1", port: peer.port))

        // NMEA has nothing to ask: one timeout of silence is a stall. The epoch the silence cut short is delivered.
        let reason = try #require(await states.nextReconnectReason())
        #expect(reason == "NMEA tcp 127.0.0.1:\(peer.port) sent nothing for 200 ms (stalled)")
        #expect(await fixes.read(3).count == 3)
        #expect(await fixes.read(1).count == 1, "the next connection delivers again")
        #expect(connections.withLock { $0 } >= 2)
        await manager.stop()
    }

    @Test @RegistryActor
    func aMegabyteLineThatNeverEndsIsAStallNamedAsSuch() async throws {
        let connections = ObservedMutex(0)
        let unended = Array(Self.banner.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let peer = try Self.silentPeer(after: unended, connections: connections)
        defer { peer.close() }
        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        // Long enough that the peer's megabyte is all sent before silence is timed, even on a loaded machine.
        manager.silenceTimeout = .seconds(1)
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        let reason = try #require(await states.nextReconnectReason())
        #expect(
            reason.hasSuffix(
                "(stalled); last problem: gpsd sent a line of 1048576 bytes without an end, over the 10240-byte limit; "
                    + "dropped it"), "\(reason)")
        await manager.stop()
    }
}
