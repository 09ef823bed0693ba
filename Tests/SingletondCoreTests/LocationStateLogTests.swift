import GNSSLocation
import Testing

@testable import SingletondCore

/// What the daemon logs of the location manager's states: every change, but a source that fails again and again
/// for one reason gets its first line, one summary a minute at most, and one when the run ends.
@Suite struct LocationStateLogTests {
    static let source = "gpsd://127.0.0.1:2947"
    static let reason = "gpsd://127.0.0.1:2947 closed the connection"

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

    /// A peer that sends one fix per connection and closes (43 connections and 137 lines in 10 s before): its
    /// fixes stay in the run of failures, the first is logged, and the next fix is news again after a summary.
    @Test func aPeerThatSendsOneFixPerConnectionIsLoggedOnceThenSummarisedOnceAMinute() {
        var log = LocationStateLog()
        var lines: [String] = []
        // 200 connections, one every 0.5 s (100 s), each with one fix before the peer closes.
        for connection in 1...200 {
            let now = Duration.milliseconds(500 * (connection - 1))
            for state in Self.cycle(1) + [.fixed(source: Self.source)] {
                lines += log.lines(for: state, at: now).map(\.text)
            }
        }
        lines += log.lines(for: .stale(source: Self.source), at: .seconds(100)).map(\.text)
        #expect(
            lines == [
                "location: reconnecting to \(Self.source) (attempt 1): \(Self.reason)",
                "location: waiting for a fix from \(Self.source)",
                "location: fixed (\(Self.source))",
                "location: reconnecting to \(Self.source) (attempt 1): \(Self.reason) (120 times since the last line, "
                    + "119 fixes between)",
                "location: fixed (\(Self.source))",
                "location: reconnecting to \(Self.source) failed 79 times more: \(Self.reason) (79 fixes between)",
                "location: stale: no fix from \(Self.source) lately",
            ])
    }

    /// A connection that fails again long after its fix is logged in full: the reconnection, then the fix.
    @Test func aRareReconnectionIsLoggedWithTheFixThatFollows() {
        var log = LocationStateLog()
        var lines: [String] = []
        for (index, minute) in [0, 10, 20].enumerated() {
            let now = Duration.seconds(60 * minute)
            for state in Self.cycle(1) + [.fixed(source: Self.source)] {
                lines += log.lines(for: state, at: now + .seconds(index)).map(\.text)
            }
        }
        #expect(lines.count { $0.hasSuffix("fixed (\(Self.source))") } == 3, "\(lines)")
        #expect(lines.count { $0.contains("reconnecting") } == 3, "\(lines)")
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
