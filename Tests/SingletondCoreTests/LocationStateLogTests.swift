import GNSSLocation
import Testing

@testable import SingletondCore

/// What the daemon logs of the location manager's states: every change, but a source that fails again and again
/// for one reason gets its first line, one summary a minute at most, and one when the run ends.
@Suite struct LocationStateLogTests {
    static let source = "gpsd 127.0.0.1:2947"
    static let reason = "gpsd 127.0.0.1:2947 closed the connection"

    static func cycle(_ attempt: Int, reason: String = reason) -> [LocationState] {
        [
            .reconnecting(source: source, attempt: attempt, reason: reason, retryIn: .milliseconds(250)),
            .connecting(source: source), .waitingForFix(source: source),
        ]
    }

    @Test func aPeerThatClosesAtOnceIsLoggedOnceThenSummarisedOnceAMinute() {
        var log = LocationStateLog()
        var lines: [String] = []
        // 200 failures, one every 0.5 s: 100 s.
        for attempt in 1...200 {
            let now = Duration.milliseconds(500 * (attempt - 1))
            for state in Self.cycle(attempt) { lines += log.lines(for: state, at: now).map(\.text) }
        }
        lines += log.lines(for: .fixed(source: Self.source), at: .seconds(100)).map(\.text)
        #expect(
            lines == [
                "location: reconnecting to \(Self.source) (attempt 1): \(Self.reason)",
                "location: waiting for a fix from \(Self.source)",
                "location: reconnecting to \(Self.source) (attempt 121): \(Self.reason) (120 times since the last line)",
                "location: reconnecting to \(Self.source) failed 79 times more: \(Self.reason)",
                "location: fixed (\(Self.source))",
            ])
    }

    @Test func aNewReasonEndsTheRunAndIsLogged() {
        var log = LocationStateLog()
        var lines: [String] = []
        for state in Self.cycle(1) + Self.cycle(2) + Self.cycle(3, reason: "cannot connect to 127.0.0.1:2947: refused")
        {
            lines += log.lines(for: state, at: .seconds(1)).map(\.text)
        }
        #expect(
            lines == [
                "location: reconnecting to \(Self.source) (attempt 1): \(Self.reason)",
                "location: waiting for a fix from \(Self.source)",
                "location: reconnecting to \(Self.source) failed once more: \(Self.reason)",
                "location: reconnecting to \(Self.source) (attempt 3): cannot connect to 127.0.0.1:2947: refused",
                "location: waiting for a fix from \(Self.source)",
            ])
    }

    @Test func everyOtherChangeIsLoggedAndIdleNamesTheSourceThatEnded() {
        var log = LocationStateLog()
        let states: [LocationState] = [
            .connecting(source: "NMEA /tmp/log"), .waitingForFix(source: "NMEA /tmp/log"),
            .fixed(source: "NMEA /tmp/log"), .stale(source: "NMEA /tmp/log"), .idle,
        ]
        let lines = states.flatMap { log.lines(for: $0, at: .zero) }
        #expect(lines.map(\.text).last == "location: idle (NMEA /tmp/log ended)")
        #expect(lines.map(\.level) == [.info, .info, .info, .notice, .info])
    }
}
