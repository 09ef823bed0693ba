/// A clock's time as durations since one of its instants, so that code that is not generic over the clock can keep
/// and compare instants of an `any Clock<Duration>`.
package struct Timeline: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    /// The time of `clock`, counted from now.
    package init(_ clock: any Clock<Duration>) {
        self = Self.counting(clock)
    }

    /// The time of the continuous clock, counted from `origin`.
    package init(continuousFrom origin: ContinuousClock.Instant) {
        self = Self.counting(ContinuousClock(), from: origin)
    }

    private static func counting<C: Clock<Duration>>(_ clock: C) -> Timeline {
        counting(clock, from: clock.now)
    }

    private static func counting<C: Clock<Duration>>(_ clock: C, from origin: C.Instant) -> Timeline {
        Timeline(
            elapsed: { origin.duration(to: clock.now) },
            sleeper: { offset in try await clock.sleepOnCaller(until: origin.advanced(by: offset)) })
    }

    private init(
        elapsed: @escaping @Sendable () -> Duration, sleeper: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.elapsed = elapsed
        self.sleeper = sleeper
    }

    /// The time since the timeline's origin.
    package var now: Duration { elapsed() }

    /// Sleeps until the time `offset` after the origin; throws `CancellationError` when the task is cancelled first.
    package func sleep(until offset: Duration) async throws {
        try await sleeper(offset)
    }

    /// Sleeps for `duration` from now.
    package func sleep(for duration: Duration) async throws {
        try await sleeper(elapsed() + duration)
    }
}
