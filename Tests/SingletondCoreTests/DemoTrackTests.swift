import GNSSProtocol
import SingletondCore
import Testing

@Suite struct DemoTrackTests {
    private static let fixes: [Fix] = NMEADecoder.decode(DemoTrack.nmea()).events.compactMap {
        if case .fix(let fix) = $0 { fix } else { nil }
    }

    @Test func everySentenceHasAValidChecksumAndEndsWithCRLF() {
        let text = String(decoding: DemoTrack.nmea(), as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: true)
        #expect(lines.count >= DemoTrack.duration * 6)
        #expect(text.hasSuffix("\r\n"))
        for line in lines {
            guard line.first == "$", let star = line.lastIndex(of: "*") else {
                Issue.record("not a sentence: \(line)")
                return
            }
            let body = line[line.index(after: line.startIndex)..<star]
            let checksum = body.utf8.reduce(UInt8(0), ^)
            #expect(UInt8(line[line.index(after: star)...], radix: 16) == checksum, "\(line)")
            #expect(line.utf8.count <= 82, "\(line) is longer than NMEA allows")
        }
    }

    @Test func theBytesAreTheSameEveryTime() {
        #expect(DemoTrack.nmea() == DemoTrack.nmea())
    }

    @Test func decodesToOneFixPerSecondWithALostFixAndARecovery() {
        let fixes = Self.fixes
        #expect(fixes.count >= DemoTrack.duration - 1)
        let byMode = Dictionary(grouping: fixes, by: \.mode).mapValues(\.count)
        #expect(byMode[.noFix] == DemoTrack.outage.count)
        #expect(byMode[.twoD] == DemoTrack.recovery2D.count)
        #expect((byMode[.threeD] ?? 0) >= DemoTrack.duration - 21)
        // The lost fix comes after 3D fixes and is followed by 2D then 3D again.
        let modes = fixes.map(\.mode)
        let firstLost = modes.firstIndex(of: .noFix)!
        #expect(modes[firstLost - 1] == .threeD)
        #expect(modes[firstLost + DemoTrack.outage.count] == .twoD)
        #expect(modes[firstLost + DemoTrack.outage.count + DemoTrack.recovery2D.count] == .threeD)
        let times = fixes.compactMap(\.time).map(\.millisecondsSince1970)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 1_000 })
    }

    @Test func speedChangesFromStandingToJogging() {
        let speeds = Self.fixes.compactMap(\.speed)
        #expect(speeds.prefix(20).allSatisfy { $0 < 0.2 })
        #expect(speeds.contains { (1.2...1.6).contains($0) })
        #expect((speeds.max() ?? 0) > 2.8)
    }

    @Test func theLoopEndsWhereItStarted() throws {
        let positioned = Self.fixes.filter { $0.mode.hasPosition }
        let first = try #require(positioned.first)
        let last = try #require(positioned.last)
        let scale = SurveyAccumulator.metresPerDegree(latitude: first.latitude!)
        let north = (last.latitude! - first.latitude!) * scale.north
        let east = (last.longitude! - first.longitude!) * scale.east
        #expect((north * north + east * east).squareRoot() < 10)
        // ... and goes somewhere in between: the walk spans over a hundred metres.
        let far = positioned.map { ($0.latitude! - first.latitude!) * scale.north }.max() ?? 0
        #expect(far > 100)
    }
}
