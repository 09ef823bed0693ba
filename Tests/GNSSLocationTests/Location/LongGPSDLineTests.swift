import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// A line from gpsd over its length limit is skipped at full read speed: the slowdown for input with no reports
/// (``GarbageThrottleTests``) is not for it. One 3 MB line stopped fixes for 26 s, 100 MB for about 21 minutes.
@Suite(.hangBound) struct LongGPSDLineTests {
    static let secondTPV =
        #"{"class":"TPV","mode":3,"time":"2026-11-22T12:00:02.000Z","lat":48.1174,"lon":11.516667}"# + "\r\n"

    /// A fix, a 3 MB line, a fix: both fixes arrive while the test clock stands still. The throttle would wait 50 ms
    /// on that clock before each chunk past the first megabyte without a report; here nothing waits on it (the
    /// silence watch is off, the stale watch waits an hour), so a throttle's wait is seen the moment it begins, and
    /// the second fix arrives without one.
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aThreeMegabyteLineIsSkippedWithoutHoldingBackTheNextFix() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let long = "{\"class\":\"" + String(repeating: "x", count: 3 << 20) + "\"}\r\n"
        let bytes = Array((LocationFaultTests.banner + LocationFaultTests.tpv + long + Self.secondTPV).utf8)
        let peer = try LoopbackPeer { connection in
            try? writeAll(connection, bytes)
            LoopbackPeer.serveRequests(connection, seconds: 100)
        }
        defer { peer.close() }
        let manager = LocationManager()
        manager.silenceTimeout = nil
        manager.staleAfter = .seconds(3_600)
        var fixes = FixReader(manager.updates())
        try await manager.start(.gpsd(host: "127.0.0.1", port: peer.port))

        // Seen a throttle's wait, the watcher records it and moves the clock on, so that the test ends either way.
        let watcher = Task { await Self.throttleWait(on: clock) }
        let read = await fixes.read(2)
        watcher.cancel()
        #expect(await watcher.value == nil, "the fixes after the long line waited for the throttle")
        #expect(read.map { $0.time?.millisecondsSince1970 } == [1_795_348_801_000, 1_795_348_802_000], "\(read)")
        await manager.shutdown()
    }

    /// The pending deadlines when a sleeper first waited for the throttle's 50 ms on `clock`, which nothing else
    /// moves; then moves it on 50 ms at a time until cancelled. `nil` when cancelled before any such wait.
    private static func throttleWait(on clock: TestClock) async -> [TestClock.Instant]? {
        var count = 1
        var seen: [TestClock.Instant]?
        while !Task.isCancelled {
            await clock.sleepers(atLeast: count)
            let pending = clock.pendingDeadlines
            if seen == nil, pending.contains(TestClock.Instant(offset: .milliseconds(50))) { seen = pending }
            if seen != nil {
                await clock.advance(by: .milliseconds(50))
            } else {
                count = pending.count + 1
            }
        }
        return seen
    }
}
