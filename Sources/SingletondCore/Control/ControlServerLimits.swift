/// What one client of the control socket may cost the daemon.
package struct ControlServerLimits: Sendable, Hashable {
    /// The longest request line, in bytes; a longer one gets an `ERROR` and is skipped up to its newline.
    package var maximumLineBytes: Int
    /// How many clients may be connected at once; more are told so and closed.
    package var maximumClients: Int
    /// How many reply bytes may wait for one client; a watcher that lets more pile up is dropped.
    package var maximumQueuedBytes: Int

    /// Creates limits; the defaults are the daemon's.
    package init(maximumLineBytes: Int = 4_096, maximumClients: Int = 64, maximumQueuedBytes: Int = 64 * 1_024) {
        self.maximumLineBytes = maximumLineBytes
        self.maximumClients = maximumClients
        self.maximumQueuedBytes = maximumQueuedBytes
    }
}
