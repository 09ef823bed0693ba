import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// A live NMEA source is read with gpsd's week-rollover rule: a receiver whose GPS week rolled over, reporting
/// 1999-03-15, is delivered on 2018-10-29, the day gpsd (and its clients) report for the same sentences.
@Suite(.hangBound) struct LocationWeekRolloverTests {
    /// `legacy-gp-noise.nmea`: a GP-only receiver with binary noise, dated 1999-03-15 in every RMC.
    static let name = "legacy-gp-noise.nmea"

    /// The fixture's cycle times as sent, each moved 1024 weeks (7,168 days) forward.
    static func expectedTimes() throws -> [Int64] {
        let (events, _) = NMEADecoder.decode(try Fixtures.bytes(name), weekRollover: .asSent)
        let asSent = events.compactMap { if case .fix(let fix) = $0 { fix.time?.millisecondsSince1970 } else { nil } }
        return asSent.map { $0 + 7_168 * 86_400_000 }
    }

    @RegistryActor
    static func deliveredTimes(_ source: LocationSource, count: Int) async throws -> [GNSSTime] {
        let manager = LocationManager()
        let updates = manager.updates(bufferSize: 1_000)
        try await manager.start(source)
        var times: [GNSSTime] = []
        for await update in updates {
            // The first cycle's partial fixes (gpsd's, after each position sentence) share its time: one each.
            if let time = update.fix.time, time != times.last { times.append(time) }
            if times.count == count { break }
        }
        await manager.shutdown()
        return times
    }

    @Test @RegistryActor
    func aFileSourceGivesGpsdsDate() async throws {
        let expected = try Self.expectedTimes()
        #expect(expected.count > 10)
        let times = try await Self.deliveredTimes(.nmeaFile(path: Fixtures.path(Self.name)), count: expected.count)
        #expect(times.map(\.millisecondsSince1970) == expected)
        #expect(times.first?.iso8601.hasPrefix("2018-10-29T") == true, "\(times.first?.iso8601 ?? "no time")")
    }

    @Test @RegistryActor
    func aReplayGivesGpsdsDate() async throws {
        let expected = try Self.expectedTimes()
        let source = LocationSource.nmeaReplay(
            name: "rolled-over receiver", bytes: try Fixtures.bytes(Self.name), pacing: .asFastAsPossible, loops: false)
        let times = try await Self.deliveredTimes(source, count: expected.count)
        #expect(times.map(\.millisecondsSince1970) == expected)
    }
}
