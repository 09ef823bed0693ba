import Foundation
import SingletonRegistry

#if canImport(Glibc)
    import Glibc
#endif

/// The poll thread: accepting, reading requests, dispatching them to the handler, writing replies and reaping
/// clients.
extension ControlServer {
    func run() {
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

    func acceptClients() {
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

    func service(id: Int, revents: Int32, buffer: inout [UInt8]) {
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
    func append(_ bytes: ArraySlice<UInt8>, to client: inout Client) {
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
    func dispatchAndReap() {
        var requests: [(Int, ControlRequest)] = []
        var closed: [(id: Int, fd: Int32, reason: String)] = []
        var dropLines: [Int: String] = [:]
        let now = timeline.now
        var refused = 0
        var emptied: [CheckedContinuation<Void, Never>] = []
        var abandoned: [Task<Void, Never>] = []
        let handler = state.withLock { state -> Handler? in
            for id in Array(state.clients.keys) {
                var client = state.clients[id]!
                defer { state.clients[id] = client }
                if client.isGone, let request = client.request {
                    abandoned.append(request)
                    client.request = nil
                }
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
            if state.clients.isEmpty { swap(&emptied, &state.emptyWaiters) }
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
        for request in abandoned { request.cancel() }
        for waiter in emptied { waiter.resume() }
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
            let task = Task {
                await handler(request, connection)
                self.requestFinished(id)
            }
            let gone = state.withLock { state -> Bool in
                guard state.clients[id]?.busy == true else { return false }
                state.clients[id]!.request = task
                return state.clients[id]!.isGone
            }
            if gone { task.cancel() }
        }
    }

    /// The line to log for client `id` dropped for `reason`: the first drop for a reason, then a count at most
    /// once a minute; `nil` for a drop only counted.
    static func dropLine(id: Int, reason: String, verdict: RepeatLimiter<String>.Verdict?) -> String? {
        switch verdict {
        case .first: "control: dropped client \(id): \(reason)"
        case .summary(let count): "control: dropped \(count) more clients: \(reason)"
        case nil: nil
        }
    }

    func reportRefusals(_ count: Int) {
        guard count > 0 else { return }
        logger.notice(
            "control: refused \(count) client(s) while \(limits.maximumClients) were connected; taking new ones again")
    }

    func requestFinished(_ id: Int) {
        state.withLock { state in
            state.clients[id]?.busy = false
            state.clients[id]?.request = nil
        }
        wake()
    }

    func shutDownClients() {
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
