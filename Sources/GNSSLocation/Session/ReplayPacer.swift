import GNSSProtocol
import SingletonRegistry

/// Delays each fix of a recorded source until its moment comes, at `speed` times real time, on the session's
/// ``SingletonRegistry/Timeline``.
///
/// The first timed fix sets the origin; a fix whose time goes backwards (a new recording spliced on) resets it.
struct ReplayPacer: Sendable {
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
        let milliseconds = Double(time.millisecondsSince1970 - origin.time.millisecondsSince1970) / speed
        try await timeline.sleep(until: origin.offset + .milliseconds(milliseconds))
    }
}
