/// What one client of the gpsd-protocol listener may cost the daemon.
package struct GPSDListenerLimits: Sendable, Hashable {
    /// The longest request, in bytes; longer input gets an `ERROR` and is skipped up to its newline.
    package var maximumLineBytes: Int
    /// How many clients may be connected at once; more are told so and closed.
    package var maximumClients: Int
    /// How many bytes of reports and replies may wait for one client; past it the oldest are dropped.
    package var maximumQueuedBytes: Int
    /// How long a client that does not watch may stay connected without sending a request; then it is closed.
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
