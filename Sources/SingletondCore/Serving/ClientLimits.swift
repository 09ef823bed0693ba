/// What one client of a socket the daemon serves (the control socket, the gpsd listener) may cost it.
package struct ClientLimits: Sendable, Hashable {
    /// The longest request line, in bytes; a longer one gets an `ERROR` and is skipped up to its newline.
    package var maximumLineBytes: Int
    /// How many clients may be connected at once; more are told so and closed.
    package var maximumClients: Int
    /// How many bytes may wait for one client. Past it the control socket drops a watcher that does not read, and
    /// the gpsd listener drops the client's oldest reports.
    package var maximumQueuedBytes: Int
    /// How long a client may stay idle before it is closed, so that wedged clients cannot hold every place for
    /// ever. On the control socket: connected, not a watcher, no request in flight, nothing queued for it, no byte
    /// sent. On the gpsd listener: not watching and no request sent.
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
