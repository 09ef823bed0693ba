import SingletonRegistry
import SystemCalls

/// Dispatching and reaping on the poll thread: the complete request lines of idle clients go to the handler, one
/// at a time per client; clients that are done or dropped are closed, and their drops are logged without flooding
/// the log.
extension ControlServer {
    /// Parses waiting requests of idle clients and starts their handlers; closes clients that are done or dropped.
    func dispatchAndReap() {
        var requests: [(Int, ControlRequest)] = []
        var closed: [(id: Int, fd: Int32, reason: String)] = []
        var dropLines: [Int: String] = [:]
        let now = timeline.now
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
                // a watcher that does not read is. A flush that empties the queue again makes it ready, so serving
                // goes on until the client is busy, out of lines, or has a queue the kernel does not take: then
                // it has a request in flight, or is polled for input, or is polled for output.
                repeat {
                    if !state.stopping { serveWaitingLines(of: &client, id: id, into: &requests) }
                    flush(&client)
                } while !state.stopping && client.isReady(queueLimit: servingQueueLimit)
                if client.isIdle, now - client.lastActivity >= limits.idleTimeout {
                    client.dropReason = "idle for \(limits.idleTimeout)"
                }
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
            scheduleIdleTimer(&state)
            return state.handler
        }
        for request in abandoned { request.cancel() }
        for (id, fd, reason) in closed {
            System.close(fd)
            if reason.isEmpty {
                logger.debug("control: client \(id) left")
            } else if let line = dropLines[id] {
                logger.notice(line)
            }
        }
        // Waiters in `untilNoClients()` resume after the lines about the clients closed are written, so that a
        // waiter that then reads the log finds them.
        for waiter in emptied { waiter.resume() }
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

    /// Takes the client's complete request lines while it is ready: an invalid one is answered with an error on
    /// the spot, a valid one makes the client busy and goes to `requests`.
    private func serveWaitingLines(of client: inout Client, id: Int, into requests: inout [(Int, ControlRequest)]) {
        while client.isReady(queueLimit: servingQueueLimit), let newline = client.input.firstIndex(of: 0x0A) {
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

    /// Starts a task that wakes the poll thread when the earliest idle client's time is up, unless one is
    /// pending: a pending one is never later than a new deadline, since activity only moves deadlines later.
    private func scheduleIdleTimer(_ state: inout State) {
        guard state.idleTimer == nil, !state.stopping else { return }
        let deadlines = state.clients.values.filter(\.isIdle).map { $0.lastActivity + limits.idleTimeout }
        guard let deadline = deadlines.min() else { return }
        state.idleTimer = Task { [self] in
            try? await timeline.sleep(until: deadline)
            guard !Task.isCancelled else { return }
            self.state.withLock { $0.idleTimer = nil }
            wake()
        }
    }

    func requestFinished(_ id: Int) {
        let now = timeline.now
        state.withLock { state in
            state.clients[id]?.lastActivity = now
            state.clients[id]?.busy = false
            state.clients[id]?.request = nil
        }
        wake()
    }
}
