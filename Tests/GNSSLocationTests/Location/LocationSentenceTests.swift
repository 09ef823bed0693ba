import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import Testing

/// ``LocationManager/nmeaSentences(bufferSize:)``: an NMEA source's raw sentences, whole and in order, from a file
/// and from an in-memory replay.
@Suite(.timeLimit(.minutes(1))) struct LocationSentenceTests {
    /// The fixture's sentences, as its lines that start with `$` or `!`, each with its `\r\n` (every sentence of the
    /// fixture has a valid checksum).
    static func sentences(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { Array($0) + [0x0A] }
            .filter { $0.first == UInt8(ascii: "$") || $0.first == UInt8(ascii: "!") }
    }

    @Test(arguments: [false, true]) @RegistryActor
    func everySentenceComesWholeAndInOrder(replay: Bool) async throws {
        let name = "multignss-midnight.nmea"
        let bytes = try Fixtures.bytes(name)
        let expected = Self.sentences(bytes)
        #expect(expected.count > 100)
        let manager = LocationManager()
        let sentences = manager.nmeaSentences(bufferSize: expected.count)
        try await manager.start(
            replay
                ? .nmeaReplay(name: name, bytes: bytes, pacing: .asFastAsPossible, loops: false)
                : .nmeaFile(path: Fixtures.path(name)))
        var seen: [[UInt8]] = []
        for await sentence in sentences {
            seen.append(sentence)
            if seen.count == expected.count { break }
        }
        #expect(seen == expected)
    }
}
