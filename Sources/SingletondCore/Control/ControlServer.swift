import Glibc
import SingletonRegistry
import Synchronization
import SystemCalls

/// The control socket: a Unix stream socket speaking newline-delimited JSON, one request per line.
///
/// One thread runs a `poll(2)` loop over the listening socket, every client and a pipe that other threads write
/// to to wake it; it sleeps in `poll` with no timeout, so an idle server costs nothing. Each complete request line is
/// parsed on that thread and handed to the async handler in a `Task`; a client has at most one request in flight,
/// so its replies come in the order of its requests. Replies and watcher lines are queued per client under a
/// lock (an ``SanitizerVisibleMutex``) and written without blocking.
///
/// What a client can cost is bounded by ``ClientLimits``: the request line length, the number of clients,
/// and the bytes queued for one client (a watcher that does not read is dropped, not buffered).
package final class ControlServer: Sendable {
    /// Handles one request; replies with ``ControlConnection/send(_:)``. The next request of the same client waits
    /// until it returns.
    package typealias Handler = @Sendable (ControlRequest, ControlConnection) async -> Void

    struct Client {
        let fd: Int32
        /// When the client last sent a byte or had a request answered, in the server's ``timeline``.
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

    struct State {
        var clients: [Int: Client] = [:]
        var nextID = 1
        var accepting = false
        var stopping = false
        var finished = false
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
        var handler: Handler?
        /// Tasks waiting in ``untilNoClients()``.
        var emptyWaiters: [CheckedContinuation<Void, Never>] = []
        /// Dropped clients, counted per reason so that a loop of misbehaving clients does not flood the log.
        var drops = RepeatLimiter<String>()
        /// The task that wakes the poll thread when the earliest idle client's time is up.
        var idleTimer: Task<Void, Never>?
    }

    /// The socket's path.
    package let path: String
    /// The limits on clients.
    package let limits: ClientLimits
    let logger: LogWriter
    /// The time the drop summaries are counted in: the registry's clock.
    let timeline: Timeline
    let listenFD: Int32
    let wakeRead: Int32
    let wakeWrite: Int32
    private let identity: (device: UInt64, inode: UInt64)
    let state = SanitizerVisibleMutex(State())

    init(
        path: String, limits: ClientLimits, logger: LogWriter, clock: any Clock<Duration>, listenFD: Int32,
        wakeRead: Int32, wakeWrite: Int32, identity: (UInt64, UInt64)
    ) {
        self.path = path
        self.limits = limits
        self.logger = logger
        self.timeline = Timeline(clock)
        self.listenFD = listenFD
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
        self.identity = identity
    }

    deinit {
        System.close(wakeRead)
        System.close(wakeWrite)
    }

    /// Starts accepting clients on a thread of its own; each request goes to `handler`. Throws when the system
    /// refuses another thread, and then accepts nothing.
    package func start(handler: @escaping Handler) throws(Errno) {
        state.withLock { state in
            state.handler = handler
            state.accepting = true
        }
        do throws(Errno) {
            try System.startThread(named: "singletond-control") { [self] in self.run() }
        } catch {
            // Without a handler, ``stop()`` knows no thread runs and does not wait for one.
            state.withLock { state in
                state.accepting = false
                state.handler = nil
            }
            throw error
        }
    }

    /// Stops accepting new clients and removes the socket file; connected clients stay until ``stop()``.
    package func stopAccepting() {
        let wasAccepting = state.withLock { state in
            defer { state.accepting = false }
            return state.accepting
        }
        if wasAccepting { removeSocketFile() }
        wake()
    }

    /// Sends what is queued for each client as far as it goes without blocking, closes every client and the
    /// socket, removes the socket file, and returns when the server's thread has ended.
    package func stop() async {
        stopAccepting()
        let started = state.withLock { state in
            state.stopping = true
            return state.handler != nil || state.finished
        }
        guard started else {
            System.close(listenFD)
            removeSocketFile()
            return
        }
        wake()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.finished { return true }
                state.finishWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Queues `line` for every watcher; a watcher whose queue would exceed the limit is dropped.
    package func broadcast(_ line: [UInt8]) {
        let needsWake = state.withLock { state -> Bool in
            var needsWake = false
            for id in Array(state.clients.keys) where state.clients[id]!.watching {
                needsWake = enqueue(line, client: &state.clients[id]!, id: id) || needsWake
            }
            return needsWake
        }
        if needsWake { wake() }
    }

    /// Returns once no client is connected: every client the server accepted has been closed and reaped. A test
    /// hook, so that a test waits for the server instead of polling it.
    package func untilNoClients() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let empty = state.withLock { state in
                if state.clients.isEmpty { return true }
                state.emptyWaiters.append(continuation)
                return false
            }
            if empty { continuation.resume() }
        }
    }

    /// The number of connected clients.
    package var clientCount: Int { state.withLock { $0.clients.count } }

    /// What the server holds for each client, for a test that finds a client not served: whether a request is in
    /// flight, the complete request lines waiting, and the bytes of reply queued.
    package var clientStates: [String] {
        state.withLock { state in
            state.clients.sorted { $0.key < $1.key }.map { id, client in
                "client \(id): busy \(client.busy), request task \(client.request != nil), "
                    + "\(client.input.count(where: { $0 == 0x0A })) lines waiting (\(client.input.count) bytes), "
                    + "\(client.output.count) bytes queued, end of input \(client.endOfInput), hung up \(client.hungUp)"
            }
        }
    }

    /// The number of connected watchers.
    package var watcherCount: Int {
        state.withLock { $0.clients.values.count { $0.watching && $0.dropReason == nil } }
    }

    func send(_ line: [UInt8], to id: Int) {
        let needsWake = state.withLock { state -> Bool in
            guard state.clients[id] != nil else { return false }
            return enqueue(line, client: &state.clients[id]!, id: id)
        }
        if needsWake { wake() }
    }

    func setWatching(_ watching: Bool, client id: Int) {
        state.withLock { state in state.clients[id]?.watching = watching }
    }

    func isConnected(_ id: Int) -> Bool {
        state.withLock { state in state.clients[id].map { $0.dropReason == nil } ?? false }
    }

    /// The queue length at which the poll thread stops serving a client's requests until it reads its replies.
    var servingQueueLimit: Int { limits.maximumQueuedBytes / 2 }

    /// Appends `line` to the client's queue and writes what it can; returns whether the poll thread must look at
    /// the client (output left over, the client is to be dropped, or the write emptied a queue that held back
    /// its requests).
    func enqueue(_ line: [UInt8], client: inout Client, id: Int) -> Bool {
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
    func flush(_ client: inout Client) {
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

    func wake() {
        _ = withUnsafeBytes(of: UInt8(1)) { try? System.write(wakeWrite, $0) }
    }

    func removeSocketFile() {
        guard let current = try? System.linkStatus(ofPath: path), UInt64(current.st_dev) == identity.device,
            UInt64(current.st_ino) == identity.inode
        else { return }
        try? System.unlink(path)
    }
}
