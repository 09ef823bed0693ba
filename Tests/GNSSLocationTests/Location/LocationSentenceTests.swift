import Foundation
import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import TestSupport
import Testing

/// ``LocationManager/events(bufferSize:includingSentences:)``: an NMEA source's raw sentences, whole and in order,
/// each before the fix it completes, from a file and from an in-memory replay; and what a slow subscriber loses.
@Suite(.hangBound) struct LocationSentenceTests {
    /// The fixture's sentences, as its lines that start with `$` or `!`, each with its `\r\n` (every sentence of the
    /// fixture has a valid checksum).
    static func sentences(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { Array($0) + [0x0A] }
            .filter { $0.first == UInt8(ascii: "$") || $0.first == UInt8(ascii: "!") }
    }

    /// The events of `manager` reading `bytes` from a file (`replay` false) or in memory, until the source ends.
    @RegistryActor
    static func events(of bytes: [UInt8], name: String, replay: Bool, in directory: TemporaryDirectory) async throws
        -> [LocationEvent]
    {
        let path = directory.file(name)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let manager = LocationManager()
        let events = manager.events(bufferSize: 1_000_000)
        try await manager.start(
            replay
                ? .nmeaReplay(name: name, bytes: bytes, pacing: .asFastAsPossible, loops: false)
                : .nmeaFile(path: path))
        var seen: [LocationEvent] = []
        for await event in events {
            seen.append(event)
            if event == .state(.idle), seen.count > 1 { break }
        }
        return seen
    }

    @Test(arguments: [false, true])
    func everySentenceComesWholeAndInOrder(replay: Bool) async throws {
        let name = "multignss-midnight.nmea"
        let bytes = try Fixtures.bytes(name)
        let expected = Self.sentences(bytes)
        #expect(expected.count > 100)
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let events = try await Self.events(of: bytes, name: name, replay: replay, in: directory)
        let seen = events.compactMap { event -> [UInt8]? in if case .sentence(let s) = event { s } else { nil } }
        #expect(seen == expected)
    }

    @Test(arguments: [false, true])
    func aSentenceComesBeforeTheFixItCompletes(replay: Bool) async throws {
        // Two sentences a cycle, 200 cycles: a read of 4 KiB holds about 30 cycles, whose fixes one hop delivers.
        let count = 200
        let bytes = LocationTesting.cycles(from: 0, count: count)
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let events = try await Self.events(of: bytes, name: "cycles.nmea", replay: replay, in: directory)
        var sentences = 0
        var fixes = 0
        // The fixes that came before the sentence that completed them.
        var early: [Int] = []
        for event in events {
            switch event {
            case .sentence: sentences += 1
            case .fix:
                if sentences < Self.sentencesBefore(fix: fixes) { early.append(fixes) }
                fixes += 1
            case .dropped(let count): Issue.record("\(count) events dropped")
            case .satellites, .state: break
            }
        }
        #expect(fixes == count + 1 && sentences == 2 * count)
        #expect(early.isEmpty, "fixes before their sentences: \(early)")
    }

    @Test @RegistryActor
    func aSlowSubscriberLosesTheOldestEventsAndIsToldWhere() async throws {
        let manager = LocationManager()
        let events = manager.events(bufferSize: 4)
        let fixes = (0..<10).map { Fix(mode: .threeD, latitude: 47 + Double($0), longitude: 8) }
        for fix in fixes { manager.deliver(fix) }
        // Offered: the state it started in, `fixed` with the first fix, and ten fixes; the buffer kept the last four.
        var iterator = events.makeAsyncIterator()
        var received: [LocationEvent] = []
        for _ in 0..<4 { received.append(try #require(await iterator.next())) }
        #expect(received == [.dropped(8)] + fixes[6..<9].map { .fix($0) })
    }

    /// The sentences (RMC, GGA, ...) that come before fix `n` is complete: the first cycle is reported after its RMC
    /// and after its GGA, as gpsd reports a first cycle, and each later cycle after its GGA.
    static func sentencesBefore(fix n: Int) -> Int { n == 0 ? 1 : 2 * n }
}
