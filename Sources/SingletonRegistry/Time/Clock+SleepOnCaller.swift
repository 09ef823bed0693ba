extension Clock {
    /// Sleeps until `deadline`; a ``CallerResumingClock`` resumes the sleeper on the caller's executor, any other
    /// clock as `sleep(until:tolerance:)` does.
    package nonisolated(nonsending) func sleepOnCaller(until deadline: Instant) async throws {
        if let clock = self as? any CallerResumingClock {
            try await Self.sleep(on: clock, for: now.duration(to: deadline))
        } else {
            try await sleep(until: deadline, tolerance: nil)
        }
    }

    private nonisolated(nonsending) static func sleep<C: CallerResumingClock>(
        on clock: C, for duration: Duration
    ) async throws {
        guard let duration = duration as? C.Duration else { return }
        try await clock.sleepResumingCaller(for: duration)
    }
}
