import SingletonRegistry

/// The bound on a graceful shutdown: when it has not finished within its timeout, the process ends anyway.
package enum StopDeadline {
    /// Counts `timeout` on `clock` in a task of its own and then calls `expire`, unless the returned task is
    /// cancelled first.
    ///
    /// The daemon's `expire` logs and calls `_exit(1)`; its clock is the registry's, so a test counts the timeout
    /// on a ``SingletonRegistryTesting/TestClock`` and sees `expire` called at the timeout exactly.
    @discardableResult
    package static func arm(
        timeout: Duration, clock: any Clock<Duration>, expire: @escaping @Sendable () -> Void
    ) -> Task<Void, Never> {
        let timeline = Timeline(clock)
        return Task.detached {
            guard (try? await timeline.sleep(until: timeout)) != nil else { return }
            expire()
        }
    }
}
