import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// Replay pacing on a test clock: each fix comes at its recorded moment divided by the speed, exactly.
@Suite(.hangBound) struct LocationPacingTests {
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aPacedReplayDeliversEachFixAtItsRecordedMomentOverTheSpeed() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let manager = LocationManager()
        manager.staleAfter = .seconds(3_600)
        var fixes = FixReader(manager.updates())
        try await manager.start(
            .nmeaReplay(
                name: "four cycles", bytes: LocationTesting.cycles(from: 0, count: 4), pacing: .timestamps(speed: 2),
                loops: false))
        // The first cycle comes at once, as gpsd sends it: a fix after its RMC, then one after its GGA.
        let opening = await fixes.read(2)
        #expect(opening.count == 2 && opening.allSatisfy { $0.time == opening.first?.time }, "\(opening)")
        let first = try #require(fixes.fixes.first?.time)
        for cycle in 1...3 {
            // The pacer, and the staleness watch an hour out.
            await clock.sleepers(atLeast: 2)
            let moment = TestClock.Instant(offset: .milliseconds(500 * cycle))
            #expect(clock.pendingDeadlines.first == moment, "cycle \(cycle) at \(cycle) s / 2")
            await clock.advance(by: .milliseconds(499))
            #expect(manager.fixCount == cycle + 1, "no fix before its moment")
            await clock.advance(by: .milliseconds(1))
            let fix = try #require(await fixes.read(1).first)
            #expect(fix.time.map { $0.millisecondsSince1970 - first.millisecondsSince1970 } == Int64(1_000 * cycle))
        }
        await manager.shutdown()
    }

    /// A replay whose next fix is an hour away: the first fix arrives, the state turns stale after `staleAfter`
    /// exactly, and stopping leaves no timer behind.
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aFixedStateTurnsStaleWhileTheReplayWaitsForItsNextFix() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let manager = LocationManager()
        manager.staleAfter = .seconds(5)
        var states = StateWatch(manager)
        try await manager.start(
            .nmeaReplay(
                name: "one fix", bytes: Array(Self.twoCyclesAnHourApart.utf8), pacing: .timestamps(speed: 1),
                loops: false))
        await states.next { $0.name == "fixed" }
        await clock.sleepers(atLeast: 2)
        #expect(
            clock.pendingDeadlines == [
                TestClock.Instant(offset: .seconds(5)), TestClock.Instant(offset: .seconds(3_600)),
            ]
        )
        await clock.advance(by: .seconds(5))
        // The watch wakes through `Timeline`, off the actor: the test waits for the state rather than reading it.
        #expect(await states.next { $0.name != "fixed" }?.name == "stale")
        #expect(clock.now == TestClock.Instant(offset: .seconds(5)))
        await manager.shutdown()
        #expect(clock.pendingDeadlines.isEmpty)
    }

    /// A speed near zero (the library takes any `Double`): the wait for the second fix, an hour over 1e-19, is
    /// saturated at the longest one instead of trapping in its conversion to a `Duration`.
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aSpeedNearZeroWaitsTheLongestWaitInsteadOfTrapping() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let manager = LocationManager()
        manager.staleAfter = .seconds(5)
        var states = StateWatch(manager)
        try await manager.start(
            .nmeaReplay(
                name: "one fix", bytes: Array(Self.twoCyclesAnHourApart.utf8), pacing: .timestamps(speed: 1e-19),
                loops: false))
        await states.next { $0.name == "fixed" }
        await clock.sleepers(atLeast: 2)
        #expect(
            clock.pendingDeadlines == [
                TestClock.Instant(offset: .seconds(5)), TestClock.Instant(offset: .seconds(1_000_000_000_000)),
            ]
        )
        await manager.shutdown()
        #expect(clock.pendingDeadlines.isEmpty)
    }

    static let twoCyclesAnHourApart = """
        $GPGGA,120000.00,4722.6140,N,00832.5020,E,1,08,0.9,408.0,M,47.3,M,,*
        $GPRMC,120000.00,A,4722.6140,N,00832.5020,E,0.0,0.0,221126,,,A*
        $GPGGA,130000.00,4722.6141,N,00832.5021,E,1,08,0.9,408.0,M,47.3,M,,*
        $GPRMC,130000.00,A,4722.6141,N,00832.5021,E,0.0,0.0,221126,,,A*
        $GPGGA,130001.00,4722.6141,N,00832.5021,E,1,08,0.9,408.0,M,47.3,M,,*
        $GPRMC,130001.00,A,4722.6141,N,00832.5021,E,0.0,0.0,221126,,,A*

        """.split(separator: "\n").map { NMEAChecksum.sentence(String($0.dropFirst().dropLast())) }.joined()
}
