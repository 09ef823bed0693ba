import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import TestSupport
import Testing

/// `updates()` gives every subscriber every fix in order; a slow one loses its oldest and is told, never stalling
/// the rest; subscribers that stop iterating are removed.
@Suite(.hangBound) struct LocationFanOutTests {
    static func fix(_ n: Int) -> Fix {
        Fix(mode: .threeD, time: GNSSTime(millisecondsSince1970: Int64(n) * 1_000), latitude: 47, longitude: 8)
    }

    @Test @RegistryActor
    func aHundredSubscribersReceiveEveryFixInOrder() async {
        let manager = LocationManager().withoutLiveTimeouts()
        let count = 500
        let streams = (0..<100).map { _ in manager.updates(bufferSize: count) }
        for n in 0..<count { manager.deliver(Self.fix(n)) }
        for stream in streams {
            var seen: [Int64] = []
            for await update in stream {
                #expect(update.droppedBefore == 0)
                seen.append(update.fix.time!.millisecondsSince1970 / 1_000)
                if seen.count == count { break }
            }
            #expect(seen == (0..<Int64(count)).map { $0 })
        }
    }

    @Test @RegistryActor
    func aSlowSubscriberLosesItsOldestFixesAndIsToldHowMany() async {
        let manager = LocationManager().withoutLiveTimeouts()
        let slow = manager.updates(bufferSize: 4)
        // Room for every fix, so that how fast the reader task is scheduled cannot matter: what is tested is that the
        // slow subscriber's losses are its own.
        let fast = manager.updates(bufferSize: 100)
        let fastReader = Task {
            var seen = 0
            for await update in fast {
                #expect(update.droppedBefore == 0)
                seen += 1
                if seen == 100 { break }
            }
            return seen
        }
        for n in 0..<100 { manager.deliver(Self.fix(n)) }
        #expect(await fastReader.value == 100)
        var iterator = slow.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.droppedBefore == 96)
        #expect(first?.fix == Self.fix(96))
        #expect(await iterator.next()?.droppedBefore == 0)
    }

    @Test @RegistryActor
    func aHundredSubscribersReadingALiveSourceAreNotHeldBackByOneThatDoesNotRead() async throws {
        let bytes = try Fixtures.bytes("multignss-midnight.nmea")
        let source = LocationSource.nmeaReplay(name: "fixture", bytes: bytes, pacing: .asFastAsPossible, loops: false)
        let expected = try Fixtures.expectedFixes("multignss-midnight.nmea", device: source.description)
        let manager = LocationManager().withoutLiveTimeouts()
        let slow = manager.updates(bufferSize: 4)
        // Each reader runs on the pool, concurrently with the source and the others.
        let readers = (0..<100).map { _ in
            let stream = manager.updates(bufferSize: expected.count)
            return Task.detached { () -> (fixes: [Fix], dropped: Int) in
                var fixes: [Fix] = []
                var dropped = 0
                for await update in stream {
                    dropped += update.droppedBefore
                    fixes.append(update.fix)
                    if fixes.count == expected.count { break }
                }
                return (fixes, dropped)
            }
        }
        try await manager.start(source)
        // Every reader finishes while the slow subscriber has not taken a single fix.
        for reader in readers {
            let (fixes, dropped) = await reader.value
            #expect(fixes == expected)
            #expect(dropped == 0)
        }
        #expect(manager.fixCount == expected.count)
        var iterator = slow.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.droppedBefore == expected.count - 4)
        var rest: [Fix] = [first.fix]
        for _ in 0..<3 { rest.append(try #require(await iterator.next()).fix) }
        #expect(rest == Array(expected.suffix(4)))
        await manager.shutdown()
    }

    @Test @RegistryActor
    func subscribersThatStopIteratingAreRemoved() async {
        let manager = LocationManager().withoutLiveTimeouts()
        let kept = manager.updates()
        do {
            let dropped = manager.updates()
            _ = dropped
            #expect(manager.subscriberCount == 2)
        }
        #expect(manager.subscriberCount == 1)
        let cancelled = Task { for await _ in manager.updates() {} }
        cancelled.cancel()
        await cancelled.value
        #expect(manager.subscriberCount == 1)
        _ = kept
    }

    @Test @RegistryActor
    func stateFollowsTheFixesAndEveryChangeIsStreamed() async {
        let manager = LocationManager().withoutLiveTimeouts()
        let changes = manager.stateChanges()
        manager.deliver(Fix(mode: .noFix))
        manager.deliver(Self.fix(1))
        manager.deliver(Self.fix(2))
        await manager.shutdown()
        var seen: [String] = []
        for await state in changes {
            seen.append(state.name)
            if seen.count == 4 { break }
        }
        #expect(seen == ["idle", "waiting", "fixed", "idle"])
        #expect(manager.lastFix == Self.fix(2))
    }
}
