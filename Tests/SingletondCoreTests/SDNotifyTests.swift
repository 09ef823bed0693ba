import Foundation
import SingletonRegistryTesting
import SingletondCore
import Synchronization
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct SDNotifyTests {
    @Test func sendsDatagramsToAPathSocket() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let listener = DatagramSocket(name: directory.file("notify"))
        let notify = SDNotify(environment: ["NOTIFY_SOCKET": listener.name])
        #expect(notify.isEnabled)
        #expect(notify.ready(status: "fixed (demo)\nsecond line"))
        #expect(listener.receive() == "READY=1\nSTATUS=fixed (demo) second line")
        #expect(notify.stopping())
        #expect(listener.receive() == "STOPPING=1")
        #expect(notify.watchdog())
        #expect(listener.receive() == "WATCHDOG=1")
    }

    @Test func sendsDatagramsToAnAbstractSocket() throws {
        let name = "@singletond-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let listener = DatagramSocket(name: name)
        let notify = SDNotify(environment: ["NOTIFY_SOCKET": name])
        #expect(notify.status("waiting"))
        #expect(listener.receive() == "STATUS=waiting")
    }

    @Test func withoutNotifySocketNothingIsSent() {
        let notify = SDNotify(environment: [:])
        #expect(!notify.isEnabled)
        #expect(!notify.ready(status: "x"))
        #expect(!SDNotify(environment: ["NOTIFY_SOCKET": "relative/path"]).isEnabled)
    }

    @Test func aVanishedSocketIsNotFatal() {
        let directory = TemporaryDirectory()
        directory.remove()
        let notify = SDNotify(environment: ["NOTIFY_SOCKET": directory.file("gone")])
        #expect(!notify.stopping())
    }

    /// Answers its first two probes at once and holds the third until released.
    final class WedgingProbe: Sendable {
        private let calls = Atomic<Int>(0)
        let (wedged, wedgedSignal) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseSignal) = AsyncStream.makeStream(of: Void.self)

        func probe() async {
            guard calls.add(1, ordering: .relaxed).newValue == 3 else { return }
            wedgedSignal.yield()
            for await _ in release { return }
        }
    }

    /// On a test clock: a ping every 15 s exactly, each only after the probe of the registry's actor returned, and no
    /// timer at all while the probe hangs.
    @Test func watchdogPingsEveryIntervalOnlyAfterTheActorAnswers() async {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let listener = DatagramSocket(name: directory.file("notify"))
        let notify = SDNotify(environment: ["NOTIFY_SOCKET": listener.name])
        let probe = WedgingProbe()
        let clock = TestClock()
        let watchdog = Task {
            await Watchdog.run(every: .seconds(15), notify: notify, clock: clock, probe: probe.probe)
        }
        defer { watchdog.cancel() }
        for ping in 1...2 {
            await clock.sleepers(atLeast: 1)
            #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(15 * ping))])
            await clock.advance(by: .seconds(15))
            // The waits run on threads of their own: the watchdog under test needs the cooperative pool.
            #expect(await blocking { listener.receive() } == "WATCHDOG=1")
        }
        // The third probe hangs, as a wedged actor would: no ping may be sent meanwhile, and nothing is timed.
        await clock.sleepers(atLeast: 1)
        await clock.advance(by: .seconds(15))
        for await _ in probe.wedged { break }
        #expect(listener.receive(timeout: 0) == nil, "a ping went out while the probe hung")
        #expect(clock.pendingDeadlines.isEmpty)
        probe.releaseSignal.yield()
        #expect(await blocking { listener.receive() } == "WATCHDOG=1", "pings resume once the actor answers")
        await clock.sleepers(atLeast: 1)
        #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(60))], "the next interval starts then")
    }

    @Test func watchdogIntervalIsHalfOfWatchdogUsec() {
        #expect(Watchdog.interval(environment: ["WATCHDOG_USEC": "30000000"], processID: 7) == .seconds(15))
        #expect(
            Watchdog.interval(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "7"], processID: 7)
                == .seconds(1))
        #expect(Watchdog.interval(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "8"], processID: 7) == nil)
        #expect(Watchdog.interval(environment: ["WATCHDOG_USEC": "0"], processID: 7) == nil)
        #expect(Watchdog.interval(environment: ["WATCHDOG_USEC": "soon"], processID: 7) == nil)
        #expect(Watchdog.interval(environment: [:], processID: 7) == nil)
    }
}
