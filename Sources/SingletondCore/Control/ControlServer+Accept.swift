import Glibc
import SystemCalls

/// Accepting clients on the poll thread: only this daemon's user and root, and at most
/// ``ControlServerLimits/maximumClients`` at a time; a refused client is told why, and the refusals are logged
/// without flooding the log. Out of file descriptors, waiting clients are shed through a reserve descriptor
/// instead of leaving the listening socket ready for a poll loop that would spin on it.
extension ControlServer {
    func acceptClients() {
        while true {
            let fd: Int32
            do throws(Errno) {
                fd = try System.accept(listenFD)
            } catch {
                switch error.code {
                case EAGAIN, EWOULDBLOCK: return
                case ECONNABORTED: continue
                case EMFILE, ENFILE:
                    // Linux finds no descriptor before it looks for a waiting client: this says nothing of whether
                    // one waits, and the reserve's turn tells.
                    noteOutOfDescriptors(error)
                    switch shedClient(error) {
                    case .shed: continue
                    case .nobodyWaiting: return
                    case .failed:
                        // No reserve, or the freed descriptor went to another thread: wait instead of spinning.
                        state.withLock { $0.acceptPaused = true }
                        return
                    }
                default:
                    pauseAccepting(error)
                    return
                }
            }
            reportShedClients()
            System.setCloseOnExec(fd)
            System.setNonBlocking(fd)
            // Only this daemon's user and root are served, whatever the socket's mode lets in.
            if let uid = System.peerUserID(fd), !UnixSocket.isTrusted(uid) {
                refuse(fd, "not allowed: this daemon serves uid \(System.effectiveUserID()) and root only")
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
                state.clients[id] = Client(fd: fd, lastActivity: timeline.now)
                return (id, false)
            }
            if let id = accepted {
                logger.debug("control: client \(id) connected")
            } else {
                refuse(fd, "too many clients (\(limits.maximumClients)); try again later")
                if firstRefusal {
                    logger.warning(
                        "control: \(limits.maximumClients) clients connected; refusing new ones until one leaves")
                }
            }
        }
    }

    /// What spending the reserve descriptor on a waiting client came to.
    private enum Shedding {
        /// A client was accepted, told why and closed.
        case shed
        /// Nobody was waiting.
        case nobodyWaiting
        /// There was no reserve, or the descriptor it freed went to another thread.
        case failed
    }

    /// Out of descriptors: closes the reserve descriptor, accepts the waiting client with the one freed, tells it
    /// why and closes it, and takes the reserve again. The client leaves the backlog, so the listening socket is
    /// not ready for ever.
    private func shedClient(_ error: Errno) -> Shedding {
        let reserve = state.withLock { state in
            defer { state.reserveFD = -1 }
            return state.reserveFD
        }
        guard reserve >= 0 else { return .failed }
        System.close(reserve)
        let outcome: Shedding
        do throws(Errno) {
            let fd = try System.accept(listenFD)
            refuse(fd, "the daemon is out of file descriptors (\(error)); try again later")
            outcome = .shed
        } catch {
            outcome = error.code == EAGAIN || error.code == EWOULDBLOCK ? .nobodyWaiting : .failed
        }
        let reopened = Self.openReserve()
        state.withLock { state in
            state.reserveFD = reopened
            if outcome == .shed { state.shedClients += 1 }
        }
        return outcome
    }

    /// Logs the first `EMFILE` or `ENFILE` since descriptors were last free; later ones are only counted.
    private func noteOutOfDescriptors(_ error: Errno) {
        let first = state.withLock { state in
            defer { state.outOfDescriptors = true }
            return !state.outOfDescriptors
        }
        guard first else { return }
        logger.warning("control socket: out of file descriptors (\(error)); refusing new clients until some are free")
    }

    /// Logs how many clients were shed for want of descriptors, once a client is accepted again.
    private func reportShedClients() {
        let (wasOut, count) = state.withLock { state in
            defer {
                state.outOfDescriptors = false
                state.shedClients = 0
            }
            return (state.outOfDescriptors, state.shedClients)
        }
        guard wasOut else { return }
        logger.notice("control socket: file descriptors free again; refused \(count) client(s) while out of them")
    }

    /// `accept(2)` failed in a way shedding cannot help: the listening socket is left out of the next poll, which
    /// waits at most a second. Logged once per error, then counted.
    private func pauseAccepting(_ error: Errno) {
        let reason = "accept failed: \(error)"
        let verdict = state.withLock { state in
            state.acceptPaused = true
            return state.drops.occurrence(of: reason, at: timeline.now)
        }
        switch verdict {
        case .first: logger.warning("control socket: \(reason); trying again in a second")
        case .summary(let count): logger.warning("control socket: \(count) more times \(reason)")
        case nil: break
        }
    }

    /// Sends the just-accepted client `fd` an error line saying `message`, without waiting for it to read, and
    /// closes it.
    private func refuse(_ fd: Int32, _ message: String) {
        _ = JSONObjectWriter.error(message).withUnsafeBytes { try? System.send(fd, $0, waiting: false) }
        System.close(fd)
    }
}
