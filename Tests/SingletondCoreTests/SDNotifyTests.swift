import Foundation
import SingletonRegistryTesting
import SingletondCore
import Synchronization
import TestSupport
import Testing

@Suite(.hangBound) struct SDNotifyTests {
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

    /// A notify socket that nobody reads, its queue full: each notification returns at once and is counted as
    /// dropped, the first logged and the second only counted; once the socket is read again, notifications go out.
    /// Before the fix `sendto(2)` waited for room, and a watchdog ping or `STOPPING=1` held its thread for as long
    /// as nobody read.
    @Test func aNotifySocketNobodyReadsDropsAndCountsInsteadOfWaiting() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try CapturedLog(in: directory)
        let listener = DatagramSocket(name: directory.file("notify"))
        #expect(listener.fillQueue() > 0)
        let notify = SDNotify(environment: ["NOTIFY_SOCKET": listener.name], logger: log.logger)
        #expect(await Self.returns(notify.watchdog, unblockingBy: listener) == false)
        #expect(await Self.returns(notify.stopping, unblockingBy: listener) == false)
        #expect(notify.droppedCount == 2)
        let lines = try log.lines()
        #expect(lines.count { $0.contains("dropped") } == 1, "the second drop is counted, not logged: \(lines)")
        #expect(
            lines.first?.contains("systemd: WATCHDOG notification to \(listener.name) dropped: its queue is full")
                == true, "\(lines)")
        #expect(listener.receive() == "FILL")
        #expect(notify.status("read again"), "one datagram read makes room for one")
        #expect(listener.receive(containing: "STATUS=read again") != nil)
        #expect(notify.droppedCount == 2)
    }

    /// Runs `send` on a thread of its own and returns its result. A send still waiting after `waitHangBound` seconds
    /// (a bound that only catches the hang) is recorded as an issue, and released by reading `listener` empty.
    private static func returns(
        _ send: @escaping @Sendable () -> Bool, unblockingBy listener: DatagramSocket
    ) async -> Bool? {
        let (results, result) = AsyncStream.makeStream(of: Bool.self)
        let returned = DispatchSemaphore(value: 0)
        Thread {
            result.yield(send())
            result.finish()
            returned.signal()
        }.start()
        if await blocking({ returned.wait(timeout: .now() + waitHangBound) }) == .timedOut {
            Issue.record("the notification waited for room in the socket's queue")
            while listener.receive(timeout: 1) != nil {}
        }
        var iterator = results.makeAsyncIterator()
        return await iterator.next()
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
