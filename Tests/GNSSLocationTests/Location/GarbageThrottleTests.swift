import Foundation
import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// A source that sends no report for a long time is read at a bounded rate (`--nmea /dev/zero` took 1.4 cores).
@Suite(.hangBound) struct GarbageThrottleTests {
    /// Two megabytes of zeros, then a cycle: past the first megabyte the session waits on the clock before each
    /// chunk, and the fix still arrives once the test moves time on. Without the throttle the fix would arrive with
    /// nothing ever sleeping on the clock.
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func garbageWithoutReportsIsReadAtABoundedRate() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("zeros-then-a-fix.nmea")
        let bytes = [UInt8](repeating: 0, count: 2 << 20) + LocationTesting.cycles(from: 0, count: 1)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let manager = LocationManager()
        manager.staleAfter = .seconds(3_600)
        var fixes = FixReader(manager.updates())
        try await manager.start(.nmeaFile(path: path))

        await clock.sleepers(atLeast: 1)
        #expect(manager.fixCount == 0, "paused in the garbage, before the fix")
        let fix = Task { await fixes.read(1).first }
        while manager.fixCount == 0 {
            await clock.sleepers(atLeast: 1)
            await clock.advance(by: .milliseconds(50))
        }
        #expect(await fix.value?.latitude != nil)
        await manager.shutdown()
    }
}
