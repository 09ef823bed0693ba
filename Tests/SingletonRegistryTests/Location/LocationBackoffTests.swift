import GNSSLocation
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// Reconnect backoff on a test clock: 250 ms doubling to 30 s, each wait drawn inside the upper half of its ceiling,
/// and the session sleeping exactly the wait its state announced.
@Suite(.timeLimit(.minutes(1))) struct LocationBackoffTests {
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
            guard
                case .reconnecting(_, let attempt, let reason, let retryIn)? = await states.next(where: {
                    $0.name == "reconnecting"
                })
            else {
                Issue.record("the state stream ended")
                return
            }
            #expect(attempt == index + 1)
            #expect(reason == "cannot connect to 127.0.0.1:\(port): Connection refused")
            #expect(retryIn >= ceiling / 2 && retryIn <= ceiling, "attempt \(attempt): \(retryIn) of \(ceiling)")
            await clock.sleepers(atLeast: 1)
            // The session sleeps exactly the wait it announced, and nothing else is timed.
            #expect(clock.pendingDeadlines == [clock.now.advanced(by: retryIn)])
            await clock.advance(by: retryIn)
        }
        await manager.stop()
        #expect(clock.pendingDeadlines.isEmpty)
    }
}
