import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// NMEA files and in-memory replays go through the decoder and reach subscribers whole and in order.
@Suite(.hangBound) struct LocationFileSourceTests {
    @Test @RegistryActor
    func aFileDeliversEveryFixTheDecoderMakes() async throws {
        let name = "multignss-midnight.nmea"
        let source = LocationSource.nmeaFile(path: Fixtures.path(name))
        let expected = try Fixtures.expectedFixes(name, device: source.description)
        #expect(expected.count > 10)
        let manager = LocationManager()
        let updates = manager.updates(bufferSize: expected.count)
        let changes = manager.stateChanges()
        try await manager.start(source)
        var seen: [Fix] = []
        for await update in updates {
            #expect(update.droppedBefore == 0)
            seen.append(update.fix)
            if seen.count == expected.count { break }
        }
        #expect(seen == expected)
        for await state in changes where state == .idle && manager.source == nil { break }
    }

    @Test @RegistryActor
    func aMissingFileIsAClearErrorNamingIt() async {
        let manager = LocationManager()
        let path = "/nonexistent/receiver.nmea"
        await #expect {
            try await manager.start(.nmeaFile(path: path))
        } throws: { error in
            "\(error)".contains(path) && "\(error)".contains("No such file")
        }
        guard case .failed(_, let message) = manager.state else {
            Issue.record("state is \(manager.state)")
            return
        }
        #expect(message.contains(path))
    }

    @Test @RegistryActor
    func aLoopedReplayKeepsTimeMovingForward() async throws {
        let bytes = try Fixtures.bytes("multignss-midnight.nmea")
        let perPass = try Fixtures.expectedFixes("multignss-midnight.nmea", device: "x").count
        let manager = LocationManager()
        let updates = manager.updates(bufferSize: 4 * perPass)
        try await manager.start(.nmeaReplay(name: "fixture", bytes: bytes, pacing: .asFastAsPossible, loops: true))
        var times: [Int64] = []
        for await update in updates {
            if let time = update.fix.time { times.append(time.millisecondsSince1970) }
            if times.count == 2 * perPass + 1 { break }
        }
        await manager.shutdown()
        // Only the first pass's first cycle, reported after each of its position sentences, repeats a time.
        #expect(
            zip(times, times.dropFirst()).allSatisfy { $0 < $1 || $0 == times.first },
            "times must increase across passes"
        )
    }

    /// Pacing changes when fixes come, never which: the file paced by its timestamps, on a test clock that a driver
    /// moves from one deadline to the next, delivers what the unpaced file does. (When each fix comes is
    /// `LocationPacingTests`' subject.)
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aPacedReplayDeliversTheSameFixesAsAnUnpacedOne() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let path = Fixtures.path("multignss-midnight.nmea")
        var runs: [[Fix]] = []
        for pacing in [ReplayPacing.asFastAsPossible, .timestamps(speed: 1)] {
            let manager = LocationManager()
            var states = StateWatch(manager)
            var fixes = FixReader(manager.updates(bufferSize: 10_000))
            let driver = Task {
                while !Task.isCancelled {
                    await clock.sleepers(atLeast: 1)
                    guard let next = clock.pendingDeadlines.first, !Task.isCancelled else { continue }
                    await clock.advance(to: next)
                }
            }
            try await manager.start(.nmeaFile(path: path, pacing: pacing))
            // The file's end stops the source.
            await states.next { $0.name == "waiting" }
            await states.next { $0 == .idle }
            driver.cancel()
            await driver.value
            await fixes.read(manager.fixCount)
            #expect(fixes.dropped == 0)
            runs.append(fixes.fixes)
            await manager.shutdown()
        }
        #expect(runs[0].count > 10)
        #expect(runs[0] == runs[1])
        #expect(clock.now > TestClock.Instant(offset: .zero), "the paced run slept on the test clock")
    }
}
