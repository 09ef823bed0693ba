import Glibc
import SingletonRegistry
import SystemCalls

/// The listener's thread: it waits in `poll(2)` on the wake pipe, the listening socket and every client, then
/// writes, reads and answers, closes idle and finished clients and accepts new ones, until the listener stops.
extension GPSDListener {
    func run() {
        var fds: [pollfd] = []
        var ids: [Int] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let clock = ContinuousClock()
        var acceptor = ConnectionAcceptor(listenFD: listenFD, name: "gpsd listener", logger: logger)
        while true {
            fds.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            let now = clock.now
            var nextDeadline: ContinuousClock.Instant?
            let listening = acceptor.watchesListener()
            let stopping = state.withLock { state -> Bool in
                if state.stopping { return true }
                fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
                // Accepting paused: `poll(2)` skips a negative descriptor, for one poll of at most a second.
                fds.append(pollfd(fd: listening ? listenFD : -1, events: Int16(POLLIN), revents: 0))
                for (id, client) in state.clients {
                    var events = Int32(POLLIN)
                    if client.hasOutput { events |= Int32(POLLOUT) }
                    fds.append(pollfd(fd: client.fd, events: Int16(events), revents: 0))
                    ids.append(id)
                    if !client.policy.watches {
                        let deadline = client.lastRequest.advanced(by: limits.idleTimeout)
                        nextDeadline = min(nextDeadline ?? deadline, deadline)
                    }
                }
                return false
            }
            if stopping { break }
            var timeout: Int32 =
                if let nextDeadline {
                    Int32(clamping: max(0, (nextDeadline - now).components.seconds * 1_000 + 1_000))
                } else {
                    -1
                }
            if !listening, timeout < 0 || timeout > ConnectionAcceptor.pauseMilliseconds {
                timeout = ConnectionAcceptor.pauseMilliseconds
            }
            do throws(Errno) {
                _ = try System.poll(&fds, timeout: timeout)
            } catch {
                logger.error("gpsd listener: poll failed: \(error)")
                break
            }
            if fds[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while drain.withUnsafeMutableBytes({ try? System.read(wakeRead, into: $0) }) == 256 {}
            }
            for index in 2..<fds.count where fds[index].revents != 0 {
                service(id: ids[index - 2], revents: Int32(fds[index].revents), buffer: &buffer, now: clock.now)
            }
            reap(now: clock.now)
            if listening, fds[1].revents != 0 { acceptClients(&acceptor, now: clock.now) }
        }
        shutDownClients()
    }

    /// Writes what is queued for every client, closes clients that are finished or idle, and logs why.
    func reap(now: ContinuousClock.Instant) {
        let closed = state.withLock { state -> [(id: Int, fd: Int32, reason: String)] in
            var closed: [(id: Int, fd: Int32, reason: String)] = []
            for id in Array(state.clients.keys) {
                flush(&state.clients[id]!)
                let client = state.clients[id]!
                var reason = client.closeReason
                if reason == nil, !client.policy.watches, now - client.lastRequest >= limits.idleTimeout {
                    reason = "idle for \(limits.idleTimeout) without a request"
                }
                if let reason {
                    closed.append((id, client.fd, reason))
                    state.clients[id] = nil
                }
            }
            return closed
        }
        for (id, fd, reason) in closed {
            System.close(fd)
            logger.debug("gpsd: client \(id) closed\(reason.isEmpty ? "" : ": \(reason)")")
        }
    }

    /// Writes the client's queue without blocking; marks the client closed on a write error.
    func flush(_ client: inout GPSDListenerClient) {
        guard client.closeReason == nil else { return }
        while client.nextToWrite() {
            let fd = client.fd
            let offset = client.written
            let result = client.writing[offset...].withUnsafeBytes { bytes in
                Result { () throws(Errno) in try System.send(fd, bytes, waiting: false) }
            }
            switch result {
            case .success(let count):
                client.written += count
                if count == 0 { return }
            case .failure(let error):
                if error.code != EAGAIN, error.code != EWOULDBLOCK { client.closeReason = "connection lost: \(error)" }
                return
            }
        }
    }

    /// Ends the loop: closes every client and the socket, and wakes the tasks waiting in ``stop()``.
    func shutDownClients() {
        let (clients, waiters) = state.withLock { state in
            for id in Array(state.clients.keys) { flush(&state.clients[id]!) }
            defer {
                state.clients = [:]
                state.finished = true
                state.finishWaiters = []
            }
            return (Array(state.clients.values), state.finishWaiters)
        }
        for client in clients { System.close(client.fd) }
        System.close(listenFD)
        for waiter in waiters { waiter.resume() }
    }
}
