import Dispatch
import GNSSLocation
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// Reconnect backoff on a test clock: 250 ms doubling to 30 s, each wait drawn inside the upper half of its ceiling,
/// and the session sleeping exactly the wait its state announced.
@Suite(.hangBound) struct LocationBackoffTests {
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func backoffDoublesFrom250MillisecondsTo30SecondsWithJitterInItsBounds() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let port = try freePort()  // nothing listens there: connecting is refused
        let manager = LocationManager()
        var states = StateWatch(manager)
        try await manager.start(.nmeaTCP(host: "127.0.0.1", port: port))
        let ceilings: [Duration] = [
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16),
            .seconds(30), .seconds(30), .seconds(30),
        ]
        for (index, ceiling) in ceilings.enumerated() {
            let (attempt, reason, retryIn) = try #require(await states.nextReconnect())
            #expect(attempt == index + 1)
            #expect(reason == "cannot connect to 127.0.0.1:\(port): Connection refused")
            #expect(retryIn >= ceiling / 2 && retryIn <= ceiling, "attempt \(attempt): \(retryIn) of \(ceiling)")
            await clock.sleepers(atLeast: 1)
            // The session sleeps exactly the wait it announced, and nothing else is timed.
            #expect(clock.pendingDeadlines == [clock.now.advanced(by: retryIn)])
            await clock.advance(by: retryIn)
        }
        await manager.shutdown()
        #expect(clock.pendingDeadlines.isEmpty)
    }

    /// A peer that accepts and closes at once is retried as slowly as one that refuses: an accepted connection does
    /// not start the backoff again, only a healthy one does.
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aPeerThatAcceptsAndClosesAtOnceBacksOffLikeARefusal() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let peer = try LoopbackPeer { _ in }
        defer { peer.close() }
        let manager = LocationManager()
        var states = StateWatch(manager)
        try await manager.start(.nmeaTCP(host: "127.0.0.1", port: peer.port))
        let ceilings: [Duration] = [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4)]
        for (index, ceiling) in ceilings.enumerated() {
            let reconnect = try #require(await states.nextReconnect())
            #expect(reconnect.attempt == index + 1)
            #expect(reconnect.reason == "tcp://127.0.0.1:\(peer.port) closed the connection")
            #expect(reconnect.retryIn >= ceiling / 2 && reconnect.retryIn <= ceiling)
            await clock.sleepers(atLeast: 1)
            await clock.advance(by: reconnect.retryIn)
        }
        await manager.shutdown()
    }

    /// A connection that delivered a fix proved healthy: the next loss starts at the first attempt again.
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aConnectionThatDeliveredAFixStartsTheBackoffAgain() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let peer = try LoopbackPeer { connection in
            try? writeAll(connection, LocationTesting.cycles(from: 0, count: 2))
            LoopbackPeer.finish(connection)
        }
        defer { peer.close() }
        let manager = LocationManager()
        manager.staleAfter = .seconds(3_600)
        var states = StateWatch(manager)
        try await manager.start(.nmeaTCP(host: "127.0.0.1", port: peer.port))
        for _ in 0..<3 {
            let reconnect = try #require(await states.nextReconnect())
            #expect(reconnect.attempt == 1)
            #expect(reconnect.retryIn <= .milliseconds(250))
            // The backoff, and the staleness watch an hour out.
            await clock.sleepers(atLeast: 2)
            await clock.advance(by: reconnect.retryIn)
        }
        await manager.shutdown()
    }

    /// A quiet connection that stayed open for the longest wait proved healthy too (gpsd without a receiver says
    /// nothing, yet works); one that closes sooner does not.
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aQuietConnectionThatStayedUpForTheLongestWaitStartsTheBackoffAgain() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        // Each connection stays open, silent, until the test lets it go.
        let release = DispatchSemaphore(value: 0)
        let peer = try LoopbackPeer { _ in _ = release.wait(timeout: .now() + waitHangBound) }
        defer { peer.close() }
        let manager = LocationManager()
        manager.silenceTimeout = nil
        var states = StateWatch(manager)
        try await manager.start(.nmeaTCP(host: "127.0.0.1", port: peer.port))

        var attempts: [Int] = []
        for upFor in [Duration.milliseconds(29_999), .milliseconds(29_999), .seconds(30)] {
            await states.next { $0.name == "waiting" }
            await clock.advance(by: upFor)
            release.signal()
            let reconnect = try #require(await states.nextReconnect())
            attempts.append(reconnect.attempt)
            await clock.sleepers(atLeast: 1)
            await clock.advance(by: reconnect.retryIn)
        }
        // The first loss is attempt 1; up 29.999 s is not yet healthy; up 30 s is.
        #expect(attempts == [1, 2, 1])
        await manager.shutdown()
    }
}
