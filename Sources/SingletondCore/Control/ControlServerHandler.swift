import Glibc
import SingletonRegistry
import SystemCalls

/// The control protocol on a ``ConnectionServer``: newline-delimited JSON, one request per line, over a Unix stream
/// socket that serves only this daemon's user and root.
///
/// Each complete request line is parsed on the poll thread and handed to the async request handler
/// (``ControlServer/Handler``) in a `Task`; a client has at most one request in flight, so its replies come in the
/// order of its requests. Replies and watcher lines are queued per client and written without blocking; a watcher
/// whose queue would pass ``ClientLimits/maximumQueuedBytes`` is dropped, not buffered.
package struct ControlServerHandler: ConnectionHandler {
    /// What the control socket keeps for all its clients.
    package struct Shared: Sendable {
        /// The request handler; `nil` before the server starts and once its thread ended.
        var handler: ControlServer.Handler?
    }

    /// What a round of the poll thread leaves to do outside the lock.
    package enum Work: Sendable {
        /// Start the request handler on a request of client `id`.
        case request(id: Int, ControlRequest)
        /// Cancel the request in flight of a client that left.
        case abandon(Task<Void, Never>)
    }

    /// The socket's path.
    package let path: String
    /// The limits on clients.
    package let limits: ClientLimits
    let logger: LogWriter
    /// The device and inode of the socket file this server created: another file at the path is left alone.
    let identity: (device: UInt64, inode: UInt64)

    package var name: String { "control socket" }
    package var logPrefix: String { "control" }
    package var threadName: String { "singletond-control" }

    /// The queue length at which the poll thread stops serving a client's requests until it reads its replies.
    var servingQueueLimit: Int { limits.maximumQueuedBytes / 2 }

    package func errorLine(_ message: String) -> [UInt8] { JSONObjectWriter.error(message) }

    /// Only this daemon's user and root are served, whatever the socket's mode lets in.
    package func admit(_ fd: Int32) -> (message: String, reason: String)? {
        guard let uid = System.peerUserID(fd), !UnixSocket.isTrusted(uid) else { return nil }
        return (
            "not allowed: this daemon serves uid \(System.effectiveUserID()) and root only",
            "uid \(uid) is neither this daemon's user nor root"
        )
    }

    package func makeClient(fd: Int32, now: Duration) -> ControlConnection {
        ControlConnection(fd: fd, lastActivity: now)
    }

    /// Input while the client has nothing in flight, no complete line waiting and its queue under
    /// ``servingQueueLimit``, and not once the server stops; output while replies are queued. A client whose replies
    /// back up is read again once it reads them: what it sends meanwhile waits in the kernel, and its writes block,
    /// whether its lines are requests or over-long lines that each get an `ERROR`. A client that hung up is not
    /// polled: it is closed once its requests are done.
    package func pollEvents(of client: ControlConnection, stopping: Bool) -> Int32? {
        guard !client.hungUp else { return nil }
        var events: Int32 = 0
        if !stopping, !client.busy, !client.endOfInput, !client.input.contains(0x0A),
            client.output.count < servingQueueLimit
        {
            events |= Int32(POLLIN)
        }
        if !client.output.isEmpty { events |= Int32(POLLOUT) }
        return events
    }

    package func isReady(_ client: ControlConnection) -> Bool { client.isReady(queueLimit: servingQueueLimit) }

    /// Stopping waits for the requests in flight (a cancelled survey still sends its partial result), but reads no
    /// new ones.
    package func holdsStop(_ client: ControlConnection) -> Bool { client.busy && client.dropReason == nil }

    package func idleSince(_ client: ControlConnection) -> Duration? { client.isIdle ? client.lastActivity : nil }

    /// The first drop for a reason is logged, then a count at most once a minute; a client that left is logged at
    /// debug level.
    package func closingLine(id: Int, reason: String, drops: inout RepeatLimiter<String>, now: Duration) -> (
        level: LogLevel, text: String
    )? {
        guard !reason.isEmpty else { return (.debug, "control: client \(id) left") }
        switch drops.occurrence(of: reason, at: now) {
        case .first: return (.notice, "control: dropped client \(id): \(reason)")
        case .summary(let count): return (.notice, "control: dropped \(count) more clients: \(reason)")
        case nil: return nil
        }
    }

    /// Removes the socket file, unless another file took its place.
    package func stoppedAccepting() {
        guard let current = try? System.linkStatus(ofPath: path), UInt64(current.st_dev) == identity.device,
            UInt64(current.st_ino) == identity.inode
        else { return }
        try? System.unlink(path)
    }

    package func release(_ shared: inout Shared) {
        shared.handler = nil
    }

    /// Appends `line` to the client's queue and writes what it can; returns whether the poll thread must look at
    /// the client (output left over, the client is to be dropped, or the write emptied a queue that held back
    /// its requests).
    func enqueue(_ line: [UInt8], client: inout ControlConnection) -> Bool {
        guard client.dropReason == nil else { return false }
        if client.output.count + line.count > limits.maximumQueuedBytes {
            client.dropReason =
                client.watching
                ? "watcher does not read (over \(limits.maximumQueuedBytes) bytes queued)"
                : "client does not read its replies"
            client.output = []
            return true
        }
        let wasEmpty = client.output.isEmpty
        client.output.append(contentsOf: line)
        guard wasEmpty else { return false }
        flush(&client)
        return !client.output.isEmpty || client.dropReason != nil || client.isReady(queueLimit: servingQueueLimit)
    }

    /// Writes the client's queue without blocking; marks the client dropped on a write error.
    package func flush(_ client: inout ControlConnection) {
        guard !client.output.isEmpty else { return }
        let fd = client.fd
        do throws(Errno) {
            let written = try client.output.withUnsafeBufferPointer { (buffer) throws(Errno) in
                try System.send(fd, UnsafeRawBufferPointer(buffer), waiting: false)
            }
            if written > 0 { client.output.removeFirst(written) }
        } catch {
            guard error.code != EAGAIN, error.code != EWOULDBLOCK else { return }
            client.dropReason = "connection lost: \(error)"
            client.output = []
        }
    }
}
