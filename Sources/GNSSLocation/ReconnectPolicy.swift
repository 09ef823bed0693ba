/// How long ``LocationManager`` waits before each attempt to reopen a lost source.
///
/// The delay doubles from ``initialDelay`` up to ``maximumDelay``; each wait is drawn at random from the upper
/// half of that delay ("equal jitter"), so that many daemons that lost the same gpsd do not retry in lockstep.
public struct ReconnectPolicy: Sendable, Hashable {
    /// The delay before the first retry.
    public var initialDelay: Duration
    /// The cap on the delay.
    public var maximumDelay: Duration

    /// Creates a policy.
    public init(initialDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(30)) {
        self.initialDelay = initialDelay
        self.maximumDelay = max(initialDelay, maximumDelay)
    }

    /// The delay before retry number `attempt` (1-based), before jitter.
    public func ceiling(forAttempt attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(1, min(attempt, 64)) {
            delay = delay * 2
            if delay >= maximumDelay { return maximumDelay }
        }
        return min(delay, maximumDelay)
    }

    /// The delay before retry number `attempt`, with jitter: between half the ceiling and the ceiling.
    public func delay(forAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        delay(forAttempt: attempt, jitter: Double.random(in: 0...1, using: &generator))
    }

    /// The delay before retry number `attempt`, with jitter from the system's generator.
    ///
    /// The session uses this rather than an `inout SystemRandomNumberGenerator` of its own: that type has no size,
    /// so every session's `inout` access lands on one shared address and ThreadSanitizer reports it as a race.
    func delay(forAttempt attempt: Int) -> Duration {
        delay(forAttempt: attempt, jitter: Double.random(in: 0...1))
    }

    private func delay(forAttempt attempt: Int, jitter: Double) -> Duration {
        let ceiling = ceiling(forAttempt: attempt)
        return ceiling / 2 + (ceiling / 2) * jitter
    }
}
