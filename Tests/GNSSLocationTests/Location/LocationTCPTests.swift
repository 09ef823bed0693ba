import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// NMEA served over TCP (a phone app, a boat's network): every fix arrives, the server vanishing makes the manager
/// reconnect, and when it comes back the fixes resume on the same stream.
/// Reconnection backs off on the live clock: these tests wait for a real server to come back.
@Suite(.hangBound, .singletons { $0.clock = ContinuousClock() }) struct LocationTCPTests {
    @Test @RegistryActor
    func fixesResumeOnTheSameStreamWhenTheServerComesBack() async throws {
        let passes = [
            LocationTesting.cycles(from: 0, count: 15), LocationTesting.cycles(from: 500, count: 15),
        ]
        var peer = try Self.serve(passes[0])
        let port = peer.port
        let source = LocationSource.nmeaTCP(host: "127.0.0.1", port: port)
        let manager = LocationManager().withoutLiveTimeouts()
        manager.reconnectPolicy = LocationTesting.quickReconnect
        var states = StateWatch(manager)
        var fixes = FixReader(manager.updates(bufferSize: 1_000))
        try await manager.start(source)

        var expected: [Fix] = []
        // One decoder for both connections, as the session keeps it: the second pass's first cycle is reported once.
        let decoded = LocationTesting.fixes(ofPasses: passes, device: source.description)
        for index in passes.indices {
            // The peer sends its stream and closes; nothing is lost, and the last cycle is flushed at the end.
            let all = decoded[index].all
            expected += all
            #expect(await fixes.read(all.count) == all, "pass \(index)")
            // Attempts refused while the server was gone may still be ahead in the stream: skip them.
            let closed = await states.next {
                if case .reconnecting(_, _, let reason, _) = $0 { !reason.contains("refused") } else { false }
            }
            guard case .reconnecting(_, _, let reason, _)? = closed else {
                Issue.record("the state stream ended before the reconnect of pass \(index)")
                return
            }
            #expect(reason == "tcp://127.0.0.1:\(port) closed the connection")
            // The server vanishes: connecting is refused, and the state says so.
            peer.close()
            // (Until it is closed, the listener accepts reconnections and closes them at once.)
            let refused = await states.next {
                if case .reconnecting(_, _, let reason, _) = $0 {
                    reason.contains("refused")
                } else {
                    false
                }
            }
            #expect(
                refused?.description.hasSuffix("cannot connect to 127.0.0.1:\(port): Connection refused")
                    == true)
            if index + 1 < passes.count { peer = try Self.serve(passes[index + 1], port: port) }
        }
        #expect(fixes.fixes == expected)
        #expect(fixes.dropped == 0)
        await manager.shutdown()
    }

    /// A server on `port` that sends `bytes` to its first client and closes; later clients get nothing.
    static func serve(_ bytes: [UInt8], port: UInt16 = 0) throws -> LoopbackPeer {
        let served = SanitizerVisibleMutex(false)
        return try LoopbackPeer(port: port) { connection in
            guard !served.withLock({ $0 }) else { return }
            served.withLock { $0 = true }
            try? writeAll(connection, bytes)
            LoopbackPeer.finish(connection)
        }
    }
}
