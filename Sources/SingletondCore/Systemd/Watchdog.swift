import SingletonRegistry

/// Pings systemd's watchdog at half of `$WATCHDOG_USEC`, but only while the registry's actor answers.
///
/// Before each `WATCHDOG=1` the loop awaits a trivial call on ``SingletonRegistry/RegistryActor``: if the actor is
/// wedged (a manager blocked it), the pings stop and systemd restarts the daemon.
package enum Watchdog {
    /// The ping interval: half of `$WATCHDOG_USEC`, when it is set and `$WATCHDOG_PID` (if set) is `processID`.
    package static func interval(environment: [String: String], processID: Int32) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"], Int32(pid) != processID { return nil }
        return .microseconds(usec / 2)
    }

    /// Sends `WATCHDOG=1` every `interval` of `clock` after `probe` returned, until the task is cancelled.
    ///
    /// `probe` replaces the call on the registry's actor; a test passes one it can hold back.
    package static func run(
        every interval: Duration, notify: SDNotify, clock: any Clock<Duration>,
        probe: (@Sendable () async -> Void)? = nil
    ) async {
        let timeline = Timeline(clock)
        while !Task.isCancelled {
            do {
                try await timeline.sleep(for: interval)
            } catch {
                return
            }
            if let probe { await probe() } else { await answer() }
            if Task.isCancelled { return }
            notify.watchdog()
        }
    }

    /// A call that returns as soon as the registry's actor runs it.
    @RegistryActor
    static func answer() {}
}
