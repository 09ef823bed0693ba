import Glibc
import SingletonRegistry
import SystemCalls

/// The poll thread's loop: it waits in `poll(2)` on the wake pipe, the listening socket and every client, then
/// hands each client's events to the handler, reaps (``reap()``) and accepts (``acceptClients(_:)``), until the
/// server stops.
extension ConnectionServer {
    func run() {
        var fds: [pollfd] = []
        var ids: [Int] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var acceptor = ConnectionAcceptor(listenFD: listenFD, name: handler.name, logger: logger)
        while true {
            fds.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            var timeout: Int32 = -1
            let listening = acceptor.watchesListener()
            let stopping = state.withLock { state -> Bool in
                if state.stopping, !state.clients.values.contains(where: handler.holdsStop) { return true }
                // A client made ready since the last round (a reply flushed off this thread, a request finished) is
                // served without waiting for an event that may never come.
                if !state.stopping, state.clients.values.contains(where: handler.isReady) { timeout = 0 }
                fds.append(pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0))
                // `poll(2)` skips a negative descriptor: the listening socket is left out while accepting pauses.
                let listened = listening && state.accepting ? listenFD : -1
                fds.append(pollfd(fd: listened, events: Int16(POLLIN), revents: 0))
                for (id, client) in state.clients {
                    guard let events = handler.pollEvents(of: client, stopping: state.stopping) else { continue }
                    fds.append(pollfd(fd: client.fd, events: Int16(events), revents: 0))
                    ids.append(id)
                }
                return false
            }
            if stopping { break }
            // Accepting paused: one poll of at most a second without the listening socket.
            if !listening, timeout != 0 { timeout = ConnectionAcceptor.pauseMilliseconds }
            do throws(Errno) {
                _ = try System.poll(&fds, timeout: timeout)
            } catch {
                logger.error("\(handler.name): poll failed: \(error)")
                break
            }
            if fds[0].revents != 0 { wakePipe.drain() }
            for index in 2..<fds.count where fds[index].revents != 0 {
                handler.service(id: ids[index - 2], revents: Int32(fds[index].revents), buffer: &buffer, server: self)
            }
            reap()
            // After reaping: clients that hung up in this round free their places before new ones are counted.
            if fds[1].fd >= 0, fds[1].revents != 0 { acceptClients(&acceptor) }
        }
        shutDownClients()
    }

    /// Ends a round: lets the handler serve and write each client, closes the clients it is done with and those
    /// idle for ``ClientLimits/idleTimeout``, logs why, and has the handler do what the round collected.
    func reap() {
        let now = timeline.now
        var work: [Served.Work] = []
        var closed: [(fd: Int32, line: (level: LogLevel, text: String)?)] = []
        let emptied = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            for id in Array(state.clients.keys) {
                var client = state.clients[id]!
                var reason = handler.step(&client, id: id, stopping: state.stopping, work: &work)
                if reason?.isEmpty ?? true, let since = handler.idleSince(client), now - since >= limits.idleTimeout {
                    reason = "idle for \(limits.idleTimeout)"
                }
                guard let reason else {
                    state.clients[id] = client
                    continue
                }
                state.clients[id] = nil
                closed.append((client.fd, handler.closingLine(id: id, reason: reason, drops: &state.drops, now: now)))
            }
            scheduleIdleTimer(&state)
            guard state.clients.isEmpty else { return [] }
            defer { state.emptyWaiters = [] }
            return state.emptyWaiters
        }
        for (fd, line) in closed {
            System.close(fd)
            if let line { logger.log(line.level, line.text) }
        }
        handler.perform(work, server: self)
        // Waiters in `untilNoClients()` resume after the lines about the clients closed are written, so that a
        // waiter that then reads the log finds them.
        for waiter in emptied { waiter.resume() }
    }

    /// Starts a task that wakes the poll thread when the earliest idle client's time is up, unless one is
    /// pending: a pending one is never later than a new deadline, since activity only moves deadlines later.
    private func scheduleIdleTimer(_ state: inout State) {
        guard state.idleTimer == nil, !state.stopping else { return }
        guard let since = state.clients.values.compactMap(handler.idleSince).min() else { return }
        let deadline = since + limits.idleTimeout
        state.idleTimer = Task { [self] in
            try? await timeline.sleep(until: deadline)
            guard !Task.isCancelled else { return }
            self.state.withLock { $0.idleTimer = nil }
            wake()
        }
    }

    /// Accepts every waiting client the handler admits, up to ``ClientLimits/maximumClients``; a refused client is
    /// told why, and the refusals are logged once, then counted. Out of file descriptors, the ``ConnectionAcceptor``
    /// sheds waiting clients.
    func acceptClients(_ acceptor: inout ConnectionAcceptor) {
        while let fd = acceptor.accept(now: timeline.now, refusal: handler.errorLine) {
            if let refusal = handler.admit(fd) {
                ConnectionAcceptor.refuse(fd, with: handler.errorLine(refusal.message))
                switch state.withLock({ $0.drops.occurrence(of: refusal.reason, at: timeline.now) }) {
                case .first: logger.warning("\(handler.logPrefix): refused a client: \(refusal.reason)")
                case .summary(let count):
                    logger.warning("\(handler.logPrefix): refused \(count) more clients: \(refusal.reason)")
                case nil: break
                }
                continue
            }
            // A flood of refused clients, or clients churning at the limit, must not flood the log (nor block this
            // thread on a slow log): the first refusal is logged, the next ones counted, with a count a minute at most.
            let limit = limits.maximumClients
            let (accepted, refusal) = state.withLock { state -> (Int?, RepeatLimiter<String>.Verdict?) in
                guard state.clients.count < limit else {
                    return (nil, state.drops.occurrence(of: Self.tooManyClients, at: timeline.now))
                }
                let id = state.nextID
                state.nextID += 1
                state.clients[id] = handler.makeClient(fd: fd, now: timeline.now)
                // A client that never sends a byte wakes the thread no more: its idle time must be on the timer now.
                scheduleIdleTimer(&state)
                return (id, nil)
            }
            if let id = accepted {
                logger.debug("\(handler.logPrefix): client \(id) connected")
                continue
            }
            ConnectionAcceptor.refuse(fd, with: handler.errorLine("too many clients (\(limit)); try again later"))
            switch refusal {
            case .first:
                logger.warning("\(handler.logPrefix): \(limit) clients connected; refusing new ones until one leaves")
            case .summary(let count):
                logger.warning("\(handler.logPrefix): refused \(count) more clients: \(Self.tooManyClients)")
            case nil: break
            }
        }
    }

    /// The cause under which refusals at the client limit are counted.
    static var tooManyClients: String { "too many clients" }

    /// Ends the loop: sends what is queued as far as it goes without blocking, closes every client and the
    /// listening socket, lets the handler release what it holds, and wakes the tasks waiting in ``stop()`` and
    /// ``untilNoClients()``.
    func shutDownClients() {
        let (clients, waiters) = state.withLock { state in
            for id in Array(state.clients.keys) { handler.flush(&state.clients[id]!) }
            state.idleTimer?.cancel()
            defer {
                state.idleTimer = nil
                state.clients = [:]
                state.finished = true
                state.finishWaiters = []
                state.emptyWaiters = []
                // What the handler holds (a responder that holds this server) is released with it.
                handler.release(&state.shared)
            }
            return (Array(state.clients.values), state.finishWaiters + state.emptyWaiters)
        }
        for client in clients { System.close(client.fd) }
        closeListener()
        for waiter in waiters { waiter.resume() }
    }
}
