import GNSSProtocol
import Glibc
import SingletonRegistry
import Testing

/// gpsd peers that go silent: a stall is noticed by `silenceTimeout` and the manager reconnects, while a gpsd that is
/// silent because it has no device is left alone.
@Suite(.timeLimit(.minutes(1))) struct LocationStallTests {
    static let banner = LocationFaultTests.banner
    static let tpv = LocationFaultTests.tpv
    /// What gpsd 3.22 answers a WATCH with when it has no device.
    static let noDevices =
        #"{"class":"DEVICES","devices":[]}"# + "\r\n"
        + #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#
        + "\r\n"
    static let deviceGone = #"{"class":"DEVICE","path":"/dev/ttyUSB0","activated":0}"# + "\r\n"

    @Test @RegistryActor
    func aPeerThatSendsNothingIsAStall() async throws {
        let peer = try LoopbackPeer { connection in LoopbackPeer.holdUntilClosed(connection) }
        defer { peer.close() }
        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        manager.silenceTimeout = .milliseconds(200)
        var states = StateWatch(manager)
        let started = ContinuousClock.now
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        let reason = try #require(await states.nextReconnectReason())
        #expect(reason == "gpsd 127.0.0.1:\(peer.port) sent nothing for 200 ms after connecting (stalled)")
        #expect(ContinuousClock.now - started >= .milliseconds(200), "a stall is a whole timeout of silence")
        #expect(manager.lastProblem == reason)
        // Every connection stalls the same way, and each is given up.
        #expect(await states.nextReconnectReason() == reason)
        await manager.stop()
        #expect(manager.state == .idle)
    }

    @Test @RegistryActor
    func aGpsdThatFallsSilentAfterAFixIsAStall() async throws {
        let stream = Array((Self.banner + Self.noDevices + Self.tpv).utf8)
        let peer = try LoopbackPeer { connection in
            LoopbackPeer.drain(connection)
            try? LocationTesting.writeAll(connection, stream)
            LoopbackPeer.holdUntilClosed(connection)
        }
        defer { peer.close() }
        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        manager.silenceTimeout = .milliseconds(200)
        var fixes = FixReader(manager.updates())
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        #expect(await fixes.read(1).first?.latitude == 48.1173)
        let reason = try #require(await states.nextReconnectReason())
        #expect(reason == "gpsd 127.0.0.1:\(peer.port) sent nothing for 200 ms (stalled)")
        // The next connection delivers again on the same stream.
        #expect(await fixes.read(1).first?.latitude == 48.1173)
        await manager.stop()
    }

    @Test @RegistryActor
    func aDeviceThatAppearsLaterArmsTheTimeout() async throws {
        let idle = Array((Self.banner + Self.noDevices).utf8)
        let connections = ObservedMutex(0)
        let peer = try LoopbackPeer { connection in
            connections.withLock { $0 += 1 }
            LoopbackPeer.drain(connection)
            try? LocationTesting.writeAll(connection, idle)
            // The fixture's pacing: the client's reader is asleep without a timeout when the fix comes.
            usleep(300_000)
            try? LocationTesting.writeAll(connection, Array(Self.tpv.utf8))
            LoopbackPeer.holdUntilClosed(connection)
        }
        defer { peer.close() }
        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        manager.silenceTimeout = .milliseconds(100)
        var fixes = FixReader(manager.updates())
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        #expect(await fixes.read(1).first?.latitude == 48.1173)
        let reason = try #require(await states.nextReconnectReason())
        #expect(reason == "gpsd 127.0.0.1:\(peer.port) sent nothing for 100 ms (stalled)")
        #expect(states.seen.count { $0.name == "reconnecting" } == 1)
        #expect(states.seen.contains { $0.name == "fixed" })
        await manager.stop()
    }

    /// Why a gpsd may be silent without having stalled.
    enum IdleGpsd: String, CaseIterable, CustomTestStringConvertible {
        /// The banner and an empty device list: no receiver is plugged in yet.
        case noDeviceYet
        /// A fix, then a DEVICE report that the receiver went away.
        case deviceGone

        var testDescription: String { rawValue }

        /// What the peer sends before falling silent.
        var beforeSilence: String {
            switch self {
            case .noDeviceYet: LocationStallTests.banner + LocationStallTests.noDevices
            case .deviceGone:
                LocationStallTests.banner + LocationStallTests.noDevices + LocationStallTests.tpv
                    + LocationStallTests.deviceGone
            }
        }

        var fixesBeforeSilence: Int { self == .deviceGone ? 1 : 0 }
    }

    @Test(arguments: IdleGpsd.allCases) @RegistryActor
    func aGpsdWithNoDeviceIsNotAStall(idle: IdleGpsd) async throws {
        let silence = Duration.milliseconds(100)
        let before = Array(idle.beforeSilence.utf8)
        let after =
            Array(#"{"class":"TPV","mode":3,"time":"2026-11-22T12:00:09.000Z","lat":48.2,"lon":11.6}"#.utf8)
            + Array("\r\n".utf8)
        let connections = ObservedMutex(0)
        let peer = try LoopbackPeer { connection in
            connections.withLock { $0 += 1 }
            LoopbackPeer.drain(connection)
            try? LocationTesting.writeAll(connection, before)
            // The fixture's pacing: five timeouts of silence, then a receiver reports.
            usleep(useconds_t(5 * 100_000))
            try? LocationTesting.writeAll(connection, after)
            LoopbackPeer.holdUntilClosed(connection)
        }
        defer { peer.close() }
        let manager = LocationManager()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        manager.silenceTimeout = silence
        var fixes = FixReader(manager.updates())
        var states = StateWatch(manager)
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        let delivered = await fixes.read(idle.fixesBeforeSilence + 1)
        #expect(delivered.last?.latitude == 48.2)
        // The report after the silence came on the first connection: nothing was given up meanwhile.
        #expect(connections.withLock { $0 } == 1)
        for _ in delivered { await states.next { $0.name == "fixed" } }
        #expect(!states.seen.contains { $0.name == "reconnecting" }, "\(states.seen)")
        await manager.stop()
    }
}
