import GNSSProtocol
import SingletonRegistryTesting
import TestSupport
import Testing

@testable import GNSSLocation
@testable import SingletonRegistry

/// A fixed state turns stale when fixes stop, and then no timer is left running: an idle daemon uses no CPU.
@Suite(.hangBound) struct LocationStalenessTests {
    @Test(.singletons { $0.clock = LocationStalenessTests.exactClock }) @RegistryActor
    func aFixTurnsStaleExactlyStaleAfterTheLastFix() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let manager = LocationManager()
        manager.staleAfter = .seconds(5)
        var states = StateWatch(manager)
        manager.deliver(Fix(mode: .threeD, latitude: 47, longitude: 8))
        await states.next { $0.name == "fixed" }
        await clock.sleepers(atLeast: 1)
        await clock.advance(by: .milliseconds(4_999))
        // The watch wakes through `Timeline`, off the actor, so `advance` cannot promise it has run: the test waits
        // for it to sleep again and reads where it sleeps until, then waits for the stale state itself.
        await clock.sleepers(atLeast: 1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(5))], "+4.999 s: not stale yet")
        #expect(manager.state.name == "fixed")
        await clock.advance(by: .milliseconds(1))
        #expect(await states.next { $0.name != "fixed" }?.name == "stale", "stale at +5 s exactly")
        #expect(clock.now == TestClock.Instant(offset: .seconds(5)))

        manager.deliver(Fix(mode: .threeD, latitude: 47, longitude: 8))  // +5 s
        await clock.sleepers(atLeast: 1)
        await clock.advance(by: .seconds(3))
        manager.deliver(Fix(mode: .threeD, latitude: 47, longitude: 8))  // +8 s: the deadline moves to +13 s
        await clock.advance(by: .milliseconds(4_999))
        // The watch woke at +10 s and went back to sleep until +13 s.
        await clock.sleepers(atLeast: 1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(13))], "+12.999 s: a fix came at +8 s")
        #expect(manager.state.name == "fixed")
        await clock.advance(by: .milliseconds(1))
        #expect(await states.next { $0.name != "fixed" }?.name == "stale")
        #expect(clock.now == TestClock.Instant(offset: .seconds(13)))
        #expect(!manager.isWatchingForStaleness)
    }

    /// On the live clock the watch reads `ContinuousClock` itself (no `Timeline`): a fix still turns stale no sooner
    /// than `staleAfter` after the latest fix, the later fix's stamp included. The bound holds however the scheduler
    /// runs the test; the 50 ms pause only makes the second fix come later than the first.
    @Test(.singletons { $0.clock = ContinuousClock() }) @RegistryActor
    func onTheLiveClockAFixTurnsStaleNoSoonerThanStaleAfterTheLatestFix() async throws {
        let manager = LocationManager()
        manager.staleAfter = .milliseconds(200)
        let states = manager.stateChanges()
        var latest = ContinuousClock.now
        manager.deliver(Fix(mode: .threeD, latitude: 47, longitude: 8))
        try await Task.sleep(for: .milliseconds(50))
        if manager.state.name == "fixed" {
            latest = .now
            manager.deliver(Fix(mode: .threeD, latitude: 47, longitude: 8))
        }
        for await state in states where state.name == "stale" {
            let elapsed = latest.duration(to: .now)
            #expect(elapsed >= .milliseconds(200), "stale \(elapsed) after the latest fix")
            break
        }
        #expect(!manager.isWatchingForStaleness)
        await manager.shutdown()
    }

    /// A fresh clock for each use of the trait's closure.
    static var exactClock: TestClock { TestClock() }

    @Test(.singletons { $0.clock = LocationStalenessTests.exactClock }) @RegistryActor
    func staleAfterSilenceThenNoTimerRemains() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let manager = LocationManager()
        manager.staleAfter = .milliseconds(30)
        var states = StateWatch(manager)
        #expect(!manager.isWatchingForStaleness, "no timer before the first fix")
        manager.deliver(Fix(mode: .threeD, latitude: 47, longitude: 8))
        #expect(manager.isWatchingForStaleness)
        await states.next { $0.name == "fixed" }
        await clock.sleepers(atLeast: 1)
        await clock.advance(by: .milliseconds(30))
        #expect(await states.next { $0.name != "fixed" }?.name == "stale")
        #expect(!manager.isWatchingForStaleness, "the timer must end once the state is stale")
        #expect(clock.pendingDeadlines.isEmpty)
        manager.deliver(Fix(mode: .threeD, latitude: 47, longitude: 8))
        #expect(manager.state.name == "fixed")
        #expect(manager.isWatchingForStaleness, "the next fix arms it again")
        manager.deliver(Fix(mode: .noFix))
        await manager.shutdown()
        await clock.run()
        #expect(!manager.isWatchingForStaleness)
    }
}
