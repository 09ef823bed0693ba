import Glibc
import SingletonRegistry
import SystemCalls

/// The poll thread's loop: it waits in `poll(2)` on the wake pipe, the listening socket and every client, then
/// reads (``service(id:revents:buffer:)``), dispatches and reaps (``dispatchAndReap()``) and accepts
/// (``acceptClients(_:)``), until the server stops.
extension ControlServer {
    func run() {
        var fds: [pollfd] = []
        var ids: [Int] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var acceptor = ConnectionAcceptor(listenFD: listenFD, name: "control socket", logger: logger)
        while true {
            fds.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            var timeout: Int32 = -1
            let watchesListener = acceptor.watchesListener()
            let stopping = state.withLock { state -> Bool in
                // Stopping waits for the requests in flight (a cancelled survey still sends its partial result),
                // but reads no new ones.
                if state.stopping, !state.clients.values.contains(where: { $0.busy && $0.dropReason == nil }) {
                    return true
                }
                // A client made ready since the last dispatch (a reply flushed off this thread, a request
                // finished) is served without waiting for an event that may never come.
                if !state.stopping, state.clients.values.contains(where: { $0.isReady(queueLimit: servingQueueLimit) })
                {
                    timeout = 0
                }
                fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
                if !watchesListener {
                    // Accepting paused: one poll of at most a second without the listening socket.
                    if timeout != 0 { timeout = ConnectionAcceptor.pauseMilliseconds }
                } else if state.accepting {
                    fds.append(pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0))
                }
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
            do throws(Errno) {
                _ = try System.poll(&fds, timeout: timeout)
            } catch {
                logger.error("control socket: poll failed: \(error)")
                break
            }
            if fds[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while drain.withUnsafeMutableBytes({ try? System.read(wakeRead, into: $0) }) == 256 {}
            }
            let clientStart = fds.count - ids.count
            for index in clientStart..<fds.count where fds[index].revents != 0 {
                service(id: ids[index - clientStart], revents: Int32(fds[index].revents), buffer: &buffer)
            }
            dispatchAndReap()
            // After reaping: clients that hung up in this round free their places before new ones are counted.
            if clientStart == 2, fds[1].revents != 0 { acceptClients(&acceptor) }
        }
        shutDownClients()
    }

    /// Ends the loop: sends what is queued as far as it goes without blocking, closes every client and the
    /// listening socket, removes the socket file and wakes the tasks waiting in ``stop()``.
    func shutDownClients() {
        let (clients, waiters) = state.withLock { state in
            for id in Array(state.clients.keys) { flush(&state.clients[id]!) }
            state.idleTimer?.cancel()
            defer {
                state.idleTimer = nil
                state.clients = [:]
                state.finished = true
                state.finishWaiters = []
                // What the handler holds (a responder that holds this server) is released with it.
                state.handler = nil
            }
            return (Array(state.clients.values), state.finishWaiters)
        }
        for client in clients { System.close(client.fd) }
        System.close(listenFD)
        removeSocketFile()
        for waiter in waiters { waiter.resume() }
    }
}
