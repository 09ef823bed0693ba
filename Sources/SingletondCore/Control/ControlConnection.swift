/// The control server's record of one connection: its unread request bytes, its queued replies and whether the
/// client watches, has a request in flight or has left. The request handler sees the client as a
/// ``ControlRequester``.
package struct ControlConnection: ConnectionClient, Sendable {
    package let fd: Int32
    /// When the client last sent a byte or had a request answered, in the server's timeline.
    var lastActivity: Duration
    var input: [UInt8] = []
    var discarding = false
    var output: [UInt8] = []
    var busy = false
    var watching = false
    var endOfInput = false
    var hungUp = false
    var dropReason: String?
    /// The request in flight, cancelled when the client hangs up or is dropped: nobody is left to answer.
    var request: Task<Void, Never>?

    /// Whether the client waits for nothing from the server: not a watcher, no request in flight, nothing
    /// queued, and still connected. Such a client is closed after ``ClientLimits/idleTimeout``.
    var isIdle: Bool { !watching && !busy && output.isEmpty && !isGone }

    /// Whether nobody can read this client's replies any more.
    var isGone: Bool { hungUp || dropReason != nil }

    /// Whether the client has a complete request waiting that the poll thread can serve now: it is not
    /// dropped, has no request in flight, and its queue is under `queueLimit`, the point where serving stops
    /// until the client reads.
    ///
    /// Such a client is never left for `poll(2)` alone: it is not polled for input (its lines are already in)
    /// and may have no output to be polled for, so nothing would wake the thread for it.
    func isReady(queueLimit: Int) -> Bool {
        dropReason == nil && !busy && output.count < queueLimit && input.contains(0x0A)
    }
}
