/// What one client of the control socket may cost the daemon.
package struct ControlServerLimits: Sendable, Hashable {
    /// The longest request line, in bytes; a longer one gets an `ERROR` and is skipped up to its newline.
    package var maximumLineBytes: Int
    /// How many clients may be connected at once; more are told so and closed.
    package var maximumClients: Int
    /// How many reply bytes may wait for one client; a watcher that lets more pile up is dropped.
    package var maximumQueuedBytes: Int
    /// How long a client may stay idle (connected, not a watcher, no request in flight, nothing queued for it, no
    /// byte sent) before it is closed, so that wedged clients cannot hold every place for ever.
    package var idleTimeout: Duration

    /// Creates limits; the defaults are the daemon's.
    package init(
        maximumLineBytes: Int = 4_096, maximumClients: Int = 64, maximumQueuedBytes: Int = 64 * 1_024,
        idleTimeout: Duration = .seconds(60)
    ) {
        self.maximumLineBytes = maximumLineBytes
        self.maximumClients = maximumClients
        self.maximumQueuedBytes = maximumQueuedBytes
        self.idleTimeout = idleTimeout
    }
}
