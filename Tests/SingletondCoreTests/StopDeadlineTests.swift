import SingletonRegistryTesting
import TestSupport
import Testing

@testable import SingletondCore

/// The bound on a graceful shutdown, on a test clock: it expires at its timeout exactly, and not once cancelled.
@Suite(.hangBound) struct StopDeadlineTests {
    @Test func theDeadlineExpiresAtTheStopTimeoutExactly() async {
        let clock = TestClock()
        let (expiries, expired) = AsyncStream.makeStream(of: TestClock.Instant.self)
        StopDeadline.arm(timeout: .milliseconds(1_800), clock: clock) { expired.yield(clock.now) }
        await clock.sleepers(atLeast: 1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .milliseconds(1_800))])
        await clock.advance(by: .milliseconds(1_799))
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .milliseconds(1_800))], "not expired yet")
        await clock.advance(by: .milliseconds(1))
        var iterator = expiries.makeAsyncIterator()
        #expect(await iterator.next() == TestClock.Instant(offset: .milliseconds(1_800)))
    }

    @Test func aShutdownThatFinishesInTimeCancelsTheDeadline() async {
        let clock = TestClock()
        let deadline = StopDeadline.arm(timeout: .seconds(2), clock: clock) {
            Issue.record("expired after it was cancelled")
        }
        await clock.sleepers(atLeast: 1)
        deadline.cancel()
        await deadline.value
        #expect(clock.pendingDeadlines.isEmpty)
        await clock.advance(by: .seconds(10))
    }
}
