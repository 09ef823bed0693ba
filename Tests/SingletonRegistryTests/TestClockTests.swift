import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// The manual clock: time moves only when the test moves it, sleepers wake in deadline order at their deadlines,
/// cancellation wakes at once, and a sleeper never woken is reported.
@Suite(.hangBound) struct TestClockTests {

    @RegistryActor
    static func sleep(_ name: String, for duration: Duration, on clock: TestClock, into journal: Journal) -> Task<
        Void, any Error
    > {
        Task { @RegistryActor in
            try await clock.sleep(for: duration)
            journal.write("\(name) at \(clock.now)")
        }
    }

    @Test @RegistryActor
    func sleepersWakeInDeadlineOrderEachAtItsDeadline() async throws {
        let clock = TestClock()
        let journal = Journal()
        let tasks = [
            Self.sleep("c", for: .seconds(3), on: clock, into: journal),
            Self.sleep("a", for: .seconds(1), on: clock, into: journal),
            Self.sleep("b", for: .seconds(2), on: clock, into: journal),
            Self.sleep("a2", for: .seconds(1), on: clock, into: journal),
        ]
        await clock.sleepers(atLeast: 4)
        await clock.advance(by: .milliseconds(999))
        #expect(journal.entries.isEmpty)
        await clock.advance(by: .milliseconds(1_001))
        #expect(journal.entries == ["a at +1.0 seconds", "a2 at +1.0 seconds", "b at +2.0 seconds"])
        #expect(clock.now == TestClock.Instant(offset: .seconds(2)))
        await clock.run()
        #expect(journal.entries.last == "c at +3.0 seconds")
        for task in tasks { try await task.value }
    }

    @Test @RegistryActor
    func aCancelledSleeperWakesAtOnceWithCancellationError() async throws {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.sleepers(atLeast: 1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingDeadlines.isEmpty)
        #expect(clock.now == TestClock.Instant(offset: .zero))
    }

    @Test @RegistryActor
    func runWakesSleepersThatSleepAgain() async throws {
        let clock = TestClock()
        let journal = Journal()
        let ticker = Task { @RegistryActor in
            for _ in 0..<3 {
                try await clock.sleep(for: .milliseconds(250))
                journal.write("tick at \(clock.now)")
            }
        }
        await clock.sleepers(atLeast: 1)
        await clock.run()
        try await ticker.value
        #expect(journal.entries == ["tick at +0.25 seconds", "tick at +0.5 seconds", "tick at +0.75 seconds"])
    }

    @Test func aSleeperNeverWokenIsReportedWhenTheScopeEnds() async throws {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        await withKnownIssue {
            await withSingletons({ $0.clock = clock }) {
                await clock.sleepers(atLeast: 1)
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("1 sleeper(s) never woken (deadlines +5.0 seconds") }
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func aScopesClockIsWhatTheRegistryReads() async {
        let clock = TestClock()
        let seen = await withSingletons({ $0.clock = clock }) {
            await Task { await appSingletons.clock is TestClock }.value
        }
        #expect(seen)
    }

    /// A test's driver that waits for sleepers can be stopped: cancelling it ends the wait.
    @Test func waitingForSleepersEndsWhenTheTaskIsCancelled() async {
        let clock = TestClock()
        let waiter = Task { await clock.sleepers(atLeast: 1) }
        waiter.cancel()
        await waiter.value
        #expect(clock.pendingDeadlines.isEmpty)
    }
}
