import Foundation
import SingletonDaemon
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

    @Test func watchdogPingsOnlyAfterTheActorAnswers() async {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let listener = DatagramSocket(name: directory.file("notify"))
        let notify = SDNotify(environment: ["NOTIFY_SOCKET": listener.name])
        let probe = WedgingProbe()
        let watchdog = Task { await Watchdog.run(every: .milliseconds(10), notify: notify, probe: probe.probe) }
        defer { watchdog.cancel() }
        // The waits run on threads of their own: the watchdog under test needs the cooperative pool.
        #expect(await blocking { listener.receive() } == "WATCHDOG=1")
        #expect(await blocking { listener.receive() } == "WATCHDOG=1")
        // The third probe hangs, as a wedged actor would: no ping may be sent meanwhile.
        for await _ in probe.wedged { break }
        #expect(listener.receive(timeout: 0) == nil, "a ping went out while the probe hung")
        probe.releaseSignal.yield()
        #expect(await blocking { listener.receive() } == "WATCHDOG=1", "pings resume once the actor answers")
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
