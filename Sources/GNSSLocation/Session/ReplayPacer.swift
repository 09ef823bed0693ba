import GNSSProtocol
import SingletonRegistry

/// Delays each fix of a recorded source until its moment comes, at `speed` times real time, on the session's
/// ``SingletonRegistry/Timeline``.
///
/// The first timed fix sets the origin; a fix whose time goes backwards (a new recording spliced on) resets it.
/// A wait is at most ``longestWaitMilliseconds``, whatever the gap between the times and however small the speed.
struct ReplayPacer: Sendable {
    /// The longest wait for one fix, in milliseconds: about 31,700 years, beyond any recording, and far inside what a
    /// `Duration` and the clocks hold (a gap over a speed near zero would not be).
    static let longestWaitMilliseconds = 1e15

    let speed: Double
    private let timeline: Timeline
    /// The first fix's moment on the timeline, and its recorded time.
    private var origin: (offset: Duration, time: GNSSTime)?

    init(speed: Double, timeline: Timeline) {
        self.speed = speed > 0 ? speed : 1
        self.timeline = timeline
    }

    /// Waits until the moment of a fix taken at `time`; returns at once for the first fix or an untimed one.
    mutating func wait(for time: GNSSTime?) async throws {
        guard let time else { return }
        guard let origin, time >= origin.time else {
            origin = (timeline.now, time)
            return
        }
        let gap = Double(time.millisecondsSince1970) - Double(origin.time.millisecondsSince1970)
        let milliseconds = min(gap / speed, Self.longestWaitMilliseconds)
        try await timeline.sleep(until: origin.offset + .milliseconds(milliseconds))
    }
}
