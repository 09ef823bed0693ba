import GNSSProtocol

/// Delays each fix of a recorded source until its moment comes, at `speed` times real time.
///
/// The first timed fix sets the origin; a fix whose time goes backwards (a new recording spliced on) resets it.
struct ReplayPacer: Sendable {
    let speed: Double
    private var origin: (instant: ContinuousClock.Instant, time: GNSSTime)?

    init(speed: Double) {
        self.speed = speed > 0 ? speed : 1
    }

    /// Waits until the moment of a fix taken at `time`; returns at once for the first fix or an untimed one.
    mutating func wait(for time: GNSSTime?) async throws {
        guard let time else { return }
        guard let origin, time >= origin.time else {
            origin = (.now, time)
            return
        }
        let milliseconds = Double(time.millisecondsSince1970 - origin.time.millisecondsSince1970) / speed
        try await Task.sleep(until: origin.instant + .milliseconds(milliseconds), clock: .continuous)
    }
}
