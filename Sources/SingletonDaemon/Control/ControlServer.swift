import Foundation
import SingletonRegistry
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The control socket: a Unix stream socket speaking newline-delimited JSON, one request per line.
///
/// One thread runs a `poll(2)` loop over the listening socket, every client and an eventfd that other threads use
/// to wake it; it sleeps in `poll` with no timeout, so an idle server costs nothing. Each complete request line is
/// parsed on that thread and handed to the async handler in a `Task`; a client has at most one request in flight,
/// so its replies come in the order of its requests. Replies and watcher lines are queued per client under a
/// lock (an ``ObservedMutex``) and written without blocking.
///
/// What a client can cost is bounded by ``ControlServerLimits``: the request line length, the number of clients,
/// and the bytes queued for one client (a watcher that does not read is dropped, not buffered).
public final class ControlServer: Sendable {
    /// Handles one request; replies with ``ControlConnection/send(_:)``. The next request of the same client waits
    /// until it returns.
    public typealias Handler = @Sendable (ControlRequest, ControlConnection) async -> Void

    private struct Client {
        let fd: Int32
        var input: [UInt8] = []
        var discarding = false
        var output: [UInt8] = []
        var busy = false
        var watching = false
        var endOfInput = false
        var hungUp = false
        var dropReason: String?
    }

    private struct State {
        var clients: [Int: Client] = [:]
        var nextID = 1
        var accepting = false
        var stopping = false
        var finished = false
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
        var handler: Handler?
        var refusedSinceLog = 0
        /// Dropped clients, counted per reason so that a loop of misbehaving clients does not flood the log.
        var drops = RepeatLimiter<String>()
    }

    /// The socket's path.
    public let path: String
    /// The limits on clients.
    public let limits: ControlServerLimits
    private let logger: Logger
    /// The time the drop summaries are counted in: the registry's clock.
    private let timeline: Timeline
    private let listenFD: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let identity: (device: UInt64, inode: UInt64)
    private let state = ObservedMutex(State())

    private init(
        path: String, limits: ControlServerLimits, logger: Logger, clock: any Clock<Duration>, listenFD: Int32,
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
        close(wakeRead)
        close(wakeWrite)
    }

    /// Creates the socket at `path` with mode 0600 and listens on it; call ``start(handler:)`` to serve.
    ///
    /// A socket file left by a dead daemon (nothing accepts on it) is replaced; a live one is not.
    ///
    /// - Throws: ``ControlServerError`` when another daemon listens there, the path is not a socket, or a system
    ///   call fails.
    /// Dropped clients are logged once per reason, then summarised at most once a minute of `clock`.
    public static func bind(
        path: String, limits: ControlServerLimits = ControlServerLimits(), logger: Logger, clock: any Clock<Duration>
    ) throws(ControlServerError) -> ControlServer {
        func failure(_ reason: String) -> ControlServerError { ControlServerError(path: path, reason: reason) }
        func systemFailure(_ what: String) -> ControlServerError {
            failure("\(what): \(String(cString: strerror(errno)))")
        }

        var existing = stat()
        if lstat(path, &existing) == 0 {
            guard existing.st_mode & S_IFMT == S_IFSOCK else {
                throw failure("the path exists and is not a socket; remove it or choose another --control path")
            }
            switch UnixSocket.connect(to: path) {
            case .success(let fd):
                let owner = UnixSocket.peerUserID(fd)
                close(fd)
                if let owner, !UnixSocket.isTrusted(owner) {
                    throw failure(
                        "a process of uid \(owner) listens on it, not this daemon's user: another user may be "
                            + "squatting the path; use a private --control path")
                }
                throw failure("another singletond is already listening on it (stop it, or use another --control path)")
            case .failure(let error) where error.errorNumber == ECONNREFUSED:
                guard existing.st_uid == geteuid() else {
                    throw failure(
                        "a stale socket of uid \(existing.st_uid) is there, not this daemon's user's; it is left alone "
                            + "(its owner can remove it), or use another --control path")
                }
                guard unlink(path) == 0 || errno == ENOENT else {
                    throw systemFailure("cannot remove the stale socket")
                }
                logger.notice("replaced the stale control socket \(path) left by a daemon that is gone")
            case .failure(let error):
                throw failure("cannot check the existing socket: \(String(cString: strerror(error.errorNumber)))")
            }
        }

        let fd: Int32
        switch UnixSocket.make(Int32(SOCK_STREAM.rawValue)) {
        case .success(let made): fd = made
        case .failure(let error): throw failure(error.description)
        }
        let oldMask = umask(0o177)
        let bound = UnixSocket.withAddress(path) { address, length in Glibc.bind(fd, address, length) }
        let bindErrno = errno
        umask(oldMask)
        guard let bound else {
            close(fd)
            throw failure("the path is too long for a Unix socket (at most 107 bytes)")
        }
        guard bound == 0 else {
            close(fd)
            errno = bindErrno
            throw systemFailure(bindErrno == EADDRINUSE ? "another process created it meanwhile" : "cannot bind")
        }
        chmod(path, 0o600)
        var created = stat()
        stat(path, &created)
        guard listen(fd, 64) == 0 else {
            let error = systemFailure("cannot listen")
            close(fd)
            unlink(path)
            throw error
        }
        UnixSocket.setNonBlocking(fd)
        var wake: [Int32] = [-1, -1]
        guard pipe(&wake) == 0 else {
            let error = systemFailure("cannot create a pipe")
            close(fd)
            unlink(path)
            throw error
        }
        for end in wake {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            UnixSocket.setNonBlocking(end)
        }
        return ControlServer(
            path: path, limits: limits, logger: logger, clock: clock, listenFD: fd, wakeRead: wake[0],
            wakeWrite: wake[1], identity: (UInt64(created.st_dev), UInt64(created.st_ino)))
    }

    /// Starts accepting clients on a thread of its own; each request goes to `handler`.
    public func start(handler: @escaping Handler) {
        state.withLock { state in
            state.handler = handler
            state.accepting = true
        }
        let thread = Thread { [self] in self.run() }
        thread.name = "singletond-control"
        thread.start()
    }

    /// Stops accepting new clients and removes the socket file; connected clients stay until ``stop()``.
    public func stopAccepting() {
        let wasAccepting = state.withLock { state in
            defer { state.accepting = false }
            return state.accepting
        }
        if wasAccepting { removeSocketFile() }
        wake()
    }

    /// Sends what is queued for each client as far as it goes without blocking, closes every client and the
    /// socket, removes the socket file, and returns when the server's thread has ended.
    public func stop() async {
        stopAccepting()
        let started = state.withLock { state in
            state.stopping = true
            return state.handler != nil
        }
        guard started else {
            close(listenFD)
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
    public func broadcast(_ line: [UInt8]) {
        let needsWake = state.withLock { state -> Bool in
            var needsWake = false
            for id in Array(state.clients.keys) where state.clients[id]!.watching {
                needsWake = enqueue(line, client: &state.clients[id]!, id: id) || needsWake
            }
            return needsWake
        }
        if needsWake { wake() }
    }

    /// The number of connected clients.
    public var clientCount: Int { state.withLock { $0.clients.count } }

    /// The number of connected watchers.
    public var watcherCount: Int {
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

    /// Appends `line` to the client's queue and writes what it can; returns whether the poll thread must look at
    /// the client (output left over, or the client is to be dropped).
    private func enqueue(_ line: [UInt8], client: inout Client, id: Int) -> Bool {
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
        return !client.output.isEmpty || client.dropReason != nil
    }

    /// Writes the client's queue without blocking; marks the client dropped on a write error.
    private func flush(_ client: inout Client) {
        guard !client.output.isEmpty else { return }
        let written = client.output.withUnsafeBytes { buffer in
            Glibc.send(client.fd, buffer.baseAddress!, buffer.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
        }
        if written > 0 {
            client.output.removeFirst(written)
        } else if written < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
            client.dropReason = "connection lost: \(String(cString: strerror(errno)))"
            client.output = []
        }
    }

    private func wake() {
        var one: UInt8 = 1
        _ = write(wakeWrite, &one, 1)
    }

    private func removeSocketFile() {
        var current = stat()
        guard lstat(path, &current) == 0, UInt64(current.st_dev) == identity.device,
            UInt64(current.st_ino) == identity.inode
        else { return }
        unlink(path)
    }

    // MARK: - The poll thread

    private func run() {
        var fds: [pollfd] = []
        var ids: [Int] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            fds.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            let stopping = state.withLock { state -> Bool in
                // Stopping waits for the requests in flight (a cancelled survey still sends its partial result),
                // but reads no new ones.
                if state.stopping, !state.clients.values.contains(where: { $0.busy && $0.dropReason == nil }) {
                    return true
                }
                fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
                if state.accepting { fds.append(pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)) }
                for (id, client) in state.clients where !client.hungUp {
                    var events: Int32 = 0
                    if !state.stopping, !client.busy, !client.endOfInput, !client.input.contains(0x0A) {
                        events |= Int32(POLLIN)
                    }
                    if !client.output.isEmpty { events |= Int32(POLLOUT) }
                    fds.append(pollfd(fd: client.fd, events: Int16(events), revents: 0))
                    ids.append(id)
                }
                return false
            }
            if stopping { break }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                logger.error("control socket: poll failed: \(String(cString: strerror(errno)))")
                break
            }
            if fds[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while drain.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress!, $0.count) }) == 256 {}
            }
            let clientStart = fds.count - ids.count
            for index in clientStart..<fds.count where fds[index].revents != 0 {
                service(id: ids[index - clientStart], revents: Int32(fds[index].revents), buffer: &buffer)
            }
            dispatchAndReap()
            // After reaping: clients that hung up in this round free their places before new ones are counted.
            if clientStart == 2, fds[1].revents != 0 { acceptClients() }
        }
        shutDownClients()
    }

    private func acceptClients() {
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                UnixSocket.setNonBlocking(fd)
            }
            if fd < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN, errno != EWOULDBLOCK {
                    logger.warning("control socket: accept failed: \(String(cString: strerror(errno)))")
                }
                return
            }
            // Only this daemon's user and root are served, whatever the socket's mode lets in.
            if let uid = UnixSocket.peerUserID(fd), !UnixSocket.isTrusted(uid) {
                let message = JSONObjectWriter.error("not allowed: this daemon serves uid \(geteuid()) and root only")
                _ = message.withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                close(fd)
                let reason = "uid \(uid) is neither this daemon's user nor root"
                switch state.withLock({ $0.drops.occurrence(of: reason, at: timeline.now) }) {
                case .first: logger.warning("control: refused a client: \(reason)")
                case .summary(let count): logger.warning("control: refused \(count) more clients: \(reason)")
                case nil: break
                }
                continue
            }
            // A flood of refused clients must not flood the log (nor block this thread on a slow log): the first
            // refusal is logged, and their number once a place is free again (see `reportRefusals`).
            let (accepted, firstRefusal) = state.withLock { state -> (Int?, Bool) in
                guard state.clients.count < limits.maximumClients else {
                    state.refusedSinceLog += 1
                    return (nil, state.refusedSinceLog == 1)
                }
                let id = state.nextID
                state.nextID += 1
                state.clients[id] = Client(fd: fd)
                return (id, false)
            }
            if let id = accepted {
                logger.debug("control: client \(id) connected")
            } else {
                let message = JSONObjectWriter.error("too many clients (\(limits.maximumClients)); try again later")
                _ = message.withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                close(fd)
                if firstRefusal {
                    logger.warning(
                        "control: \(limits.maximumClients) clients connected; refusing new ones until one leaves")
                }
            }
        }
    }

    private func service(id: Int, revents: Int32, buffer: inout [UInt8]) {
        guard let fd = state.withLock({ $0.clients[id]?.fd }) else { return }
        if revents & Int32(POLLOUT) != 0 {
            state.withLock { state in
                guard state.clients[id] != nil else { return }
                flush(&state.clients[id]!)
            }
        }
        if revents & Int32(POLLNVAL) != 0 {
            state.withLock { state in
                if state.clients[id]?.dropReason == nil { state.clients[id]?.dropReason = "" }
            }
            return
        }
        let hungUp = revents & (Int32(POLLHUP) | Int32(POLLERR)) != 0
        guard hungUp || revents & Int32(POLLIN) != 0 else { return }
        // A client that hung up may have sent requests first (`echo '{"cmd":"cancel"}' | nc -U ...`): read what
        // is there, then stop polling it; it is closed once its requests are done.
        for _ in 0..<(hungUp ? 16 : 1) {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            let readError = errno
            let more = state.withLock { state -> Bool in
                guard state.clients[id] != nil else { return false }
                if count == 0 {
                    state.clients[id]!.endOfInput = true
                    return false
                }
                if count < 0 {
                    if readError != EAGAIN, readError != EINTR { state.clients[id]!.dropReason = "" }
                    return false
                }
                append(buffer[0..<count], to: &state.clients[id]!)
                return true
            }
            if !more { break }
        }
        if hungUp {
            state.withLock { state in
                state.clients[id]?.endOfInput = true
                state.clients[id]?.hungUp = true
            }
        }
    }

    /// Adds received bytes to the client's input, skipping the rest of an over-long line.
    private func append(_ bytes: ArraySlice<UInt8>, to client: inout Client) {
        var bytes = bytes
        if client.discarding {
            guard let newline = bytes.firstIndex(of: 0x0A) else { return }
            bytes = bytes[(newline + 1)...]
            client.discarding = false
        }
        client.input.append(contentsOf: bytes)
        let pendingLineLength =
            client.input.lastIndex(of: 0x0A).map { client.input.count - $0 - 1 } ?? client.input.count
        if pendingLineLength > limits.maximumLineBytes {
            client.input.removeLast(pendingLineLength)
            client.discarding = true
            let error = JSONObjectWriter.error("request longer than \(limits.maximumLineBytes) bytes")
            client.output.append(contentsOf: error)
            flush(&client)
        }
    }

    /// Parses waiting requests of idle clients and starts their handlers; closes clients that are done or dropped.
    private func dispatchAndReap() {
        var requests: [(Int, ControlRequest)] = []
        var closed: [(id: Int, fd: Int32, reason: String)] = []
        var dropLines: [Int: String] = [:]
        let now = timeline.now
        var refused = 0
        let handler = state.withLock { state -> Handler? in
            for id in Array(state.clients.keys) {
                var client = state.clients[id]!
                defer { state.clients[id] = client }
                // A client whose replies back up gets no new request served until it reads them: its requests wait
                // in its input, then in the kernel, and its writes block. It is never dropped for pipelining; only
                // a watcher that does not read is.
                while !state.stopping, client.dropReason == nil, !client.busy,
                    client.output.count < limits.maximumQueuedBytes / 2,
                    let newline = client.input.firstIndex(of: 0x0A)
                {
                    var line = client.input[..<newline]
                    client.input.removeSubrange(...newline)
                    if line.last == 0x0D { line = line.dropLast() }
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                    if line.count > limits.maximumLineBytes {
                        client.output.append(
                            contentsOf: JSONObjectWriter.error("request longer than \(limits.maximumLineBytes) bytes"))
                        continue
                    }
                    do {
                        let request = try ControlRequest.parse(line)
                        client.busy = true
                        requests.append((id, request))
                    } catch {
                        client.output.append(contentsOf: JSONObjectWriter.error("\(error)"))
                    }
                }
                flush(&client)
                let finished =
                    client.endOfInput && !client.busy && client.output.isEmpty
                    && !client.input.contains(0x0A)
                if let reason = client.dropReason ?? (finished ? "" : nil) {
                    closed.append((id, client.fd, reason))
                }
            }
            for (id, _, _) in closed { state.clients[id] = nil }
            for (id, _, reason) in closed where !reason.isEmpty {
                dropLines[id] = Self.dropLine(
                    id: id, reason: reason, verdict: state.drops.occurrence(of: reason, at: now))
            }
            if state.refusedSinceLog > 0, state.clients.count < limits.maximumClients {
                refused = state.refusedSinceLog
                state.refusedSinceLog = 0
            }
            return state.handler
        }
        reportRefusals(refused)
        for (id, fd, reason) in closed {
            close(fd)
            if reason.isEmpty {
                logger.debug("control: client \(id) left")
            } else if let line = dropLines[id] {
                logger.notice(line)
            }
        }
        guard let handler else { return }
        for (id, request) in requests {
            let connection = ControlConnection(id: id, server: self)
            logger.debug("control: client \(id) asks \(request)")
            Task {
                await handler(request, connection)
                self.requestFinished(id)
            }
        }
    }

    /// The line to log for client `id` dropped for `reason`: the first drop for a reason, then a count at most
    /// once a minute; `nil` for a drop only counted.
    private static func dropLine(id: Int, reason: String, verdict: RepeatLimiter<String>.Verdict?) -> String? {
        switch verdict {
        case .first: "control: dropped client \(id): \(reason)"
        case .summary(let count): "control: dropped \(count) more clients: \(reason)"
        case nil: nil
        }
    }

    private func reportRefusals(_ count: Int) {
        guard count > 0 else { return }
        logger.notice(
            "control: refused \(count) client(s) while \(limits.maximumClients) were connected; taking new ones again")
    }

    private func requestFinished(_ id: Int) {
        state.withLock { state in state.clients[id]?.busy = false }
        wake()
    }

    private func shutDownClients() {
        let (clients, waiters, refused) = state.withLock { state in
            for id in Array(state.clients.keys) { flush(&state.clients[id]!) }
            defer {
                state.clients = [:]
                state.finished = true
                state.finishWaiters = []
                state.refusedSinceLog = 0
            }
            return (Array(state.clients.values), state.finishWaiters, state.refusedSinceLog)
        }
        reportRefusals(refused)
        for client in clients { close(client.fd) }
        close(listenFD)
        removeSocketFile()
        for waiter in waiters { waiter.resume() }
    }
}
