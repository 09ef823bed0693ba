/// Asking again and again for something that announces itself by no event (a pty a child opens, a socket its child
/// listens on): every 25 ms, for up to two minutes (a hang bound), while the process that will provide it runs. The
/// interval paces the asking; it decides nothing.
package enum Polling {
    /// The first non-`nil` answer of `attempt`, asked every 25 ms for up to two minutes while `isRunning` holds;
    /// `nil` when the time is up or the process ended first. An error `attempt` throws ends the polling. An attempt
    /// that may block (a request to a child that answers when it gets the CPU) runs in ``blocking(_:)``, off the
    /// cooperative pool, which every other test of the run shares.
    package static func firstAnswer<Answer>(
        while isRunning: () -> Bool, _ attempt: () async throws -> Answer?
    ) async throws -> Answer? {
        for _ in 0..<4_800 where isRunning() {
            if let answer = try await attempt() { return answer }
            try await Task.sleep(for: .milliseconds(25))
        }
        return nil
    }
}
