import SingletonRegistry

/// A protocol spoken on a ``ConnectionServer``'s connections: what the server keeps for each client, and what its
/// poll thread does with a client's bytes, requests and replies. The server owns the rest: the listening socket,
/// accepting, the client limit, idle timeouts, the wake pipe and stopping.
///
/// Every requirement is called on the server's poll thread, except ``flush(_:)``, which a conformer's own
/// broadcasts may call from any thread; those that take a client or ``Shared`` by `inout` run under the
/// server's lock.
package protocol ConnectionHandler: Sendable {
    /// What the server keeps for one client.
    associatedtype Client: ConnectionClient & Sendable
    /// What the protocol keeps for all its clients, under the server's lock.
    associatedtype Shared: Sendable
    /// What a round of the poll thread collects under the lock for ``perform(_:server:)`` to do after it.
    associatedtype Work: Sendable

    /// The limits on the clients.
    var limits: ClientLimits { get }
    /// How the log names the socket (`control socket`, `gpsd listener`).
    var name: String { get }
    /// How log lines about clients begin (`control`, `gpsd`).
    var logPrefix: String { get }
    /// The name of the poll thread.
    var threadName: String { get }

    /// An error line for a client, saying `message`: the reply to a client that is refused.
    func errorLine(_ message: String) -> [UInt8]

    /// Prepares the just-accepted connection `fd`, or says why it is refused: the message for the client and the
    /// reason for the log.
    func admit(_ fd: Int32) -> (message: String, reason: String)?

    /// The client for the accepted connection `fd`, at `now` on the server's timeline.
    func makeClient(fd: Int32, now: Duration) -> Client

    /// The `poll(2)` events to wait for on `client`; `nil` leaves it out of the poll.
    func pollEvents(of client: Client, stopping: Bool) -> Int32?

    /// Whether `client` has work the poll thread can do without waiting for an event: it then polls without
    /// sleeping.
    func isReady(_ client: Client) -> Bool

    /// Whether `client` keeps the poll thread running once the server is stopping.
    func holdsStop(_ client: Client) -> Bool

    /// Since when `client` has been idle, on the server's timeline; `nil` while it is not idle.
    func idleSince(_ client: Client) -> Duration?

    /// Acts on what `poll(2)` reported for client `id`.
    func service(id: Int, revents: Int32, buffer: inout [UInt8], server: ConnectionServer<Self>)

    /// The end of a round for `client`: serves what it waits for, writes its queue, and returns why it is to be
    /// closed (`""` for a plain end), or `nil` to keep it.
    func step(_ client: inout Client, id: Int, stopping: Bool, work: inout [Work]) -> String?

    /// Does what the round collected, outside the lock, after the closed clients are closed.
    func perform(_ work: [Work], server: ConnectionServer<Self>)

    /// The log line for client `id`, closed for `reason` (`""` for a plain end); `drops` counts the drops per reason,
    /// so that a flood of them does not flood the log.
    func closingLine(id: Int, reason: String, drops: inout RepeatLimiter<String>, now: Duration) -> (
        level: LogLevel, text: String
    )?

    /// Writes what is queued for `client` without blocking.
    func flush(_ client: inout Client)

    /// The server stopped accepting clients.
    func stoppedAccepting()

    /// The server's thread ends: `shared` lets go of what it holds.
    func release(_ shared: inout Shared)
}

/// What a ``ConnectionServer`` needs of each client a ``ConnectionHandler`` keeps.
package protocol ConnectionClient {
    /// The client's socket.
    var fd: Int32 { get }
}
