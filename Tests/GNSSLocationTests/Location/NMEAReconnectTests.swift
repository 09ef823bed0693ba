import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// An NMEA source that closes and is reopened, on a test clock: the decoder keeps the date it learnt, as gpsd 3.22
/// keeps its session's NMEA state when it reopens a device, so a connection that starts with a GGA (a time of day
/// only) reports that fix with its time.
@Suite(.hangBound) struct NMEAReconnectTests {
    /// The second of a fix from ``LocationTesting/cycles(from:count:)``: its cycle's number, below 60.
    static func second(of fix: Fix) -> Int64? {
        fix.time.map { $0.millisecondsSince1970 / 1_000 % 60 }
    }

    /// The first connection sends cycles 0 and 1 and closes; the second starts in the middle of cycle 5, at its GGA.
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func theFirstFixAfterAReconnectKeepsItsTime() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let connections = SanitizerVisibleMutex(0)
        let rest = LocationTesting.cycles(from: 5, count: 2)
        let fromGGA = Array(rest[(rest.firstIndex(of: UInt8(ascii: "\n"))! + 1)...])
        let peer = try LoopbackPeer { connection in
            let first = connections.withLock { count in
                count += 1
                return count == 1
            }
            if first {
                try? writeAll(connection, LocationTesting.cycles(from: 0, count: 2))
                LoopbackPeer.finish(connection)
            } else {
                try? writeAll(connection, fromGGA)
                LoopbackPeer.serveRequests(connection, seconds: LocationStallTests.peerBound)
            }
        }
        defer { peer.close() }
        let manager = LocationManager()
        manager.staleAfter = .seconds(3_600)
        var fixes = FixReader(manager.updates())
        var states = StateWatch(manager)
        try await manager.start(.nmeaTCP(host: "127.0.0.1", port: peer.port))

        while let fix = await fixes.read(1).first, Self.second(of: fix) != 1 {}
        let (_, reason, retryIn) = try #require(await states.nextReconnect())
        #expect(reason.hasPrefix("tcp://127.0.0.1:\(peer.port) closed the connection"), "\(reason)")
        await clock.sleepers(atLeast: 2)
        await clock.advance(by: retryIn)
        let first = try #require(await fixes.read(1).first)
        #expect(first.time != nil, "the GGA's fix lost its time")
        #expect(Self.second(of: first) == 5)
        #expect(connections.withLock { $0 } == 2)
        await manager.shutdown()
    }
}
