/// Asking again and again for something that announces itself by no event (a pty a child opens, a socket its child
/// listens on): every 25 ms, for up to 30 s, while the process that will provide it runs. The interval paces the
/// asking; it decides nothing.
package enum Polling {
    /// The first non-`nil` answer of `attempt`, asked every 25 ms for up to 30 s while `isRunning` holds; `nil` when
    /// the time is up or the process ended first. An error `attempt` throws ends the polling.
    package static func firstAnswer<Answer>(
        while isRunning: () -> Bool, _ attempt: () throws -> Answer?
    ) async throws -> Answer? {
        for _ in 0..<1_200 where isRunning() {
            if let answer = try attempt() { return answer }
            try await Task.sleep(for: .milliseconds(25))
        }
        return nil
    }
}
