import Glibc

/// Accepting clients on the poll thread: only this daemon's user and root, and at most
/// ``ControlServerLimits/maximumClients`` at a time; a refused client is told why, and the refusals are logged
/// without flooding the log.
extension ControlServer {
    func acceptClients() {
        while true {
            let fd: Int32
            do throws(Errno) {
                fd = try System.accept(listenFD)
            } catch {
                if error.code != EAGAIN, error.code != EWOULDBLOCK {
                    logger.warning("control socket: accept failed: \(error)")
                }
                return
            }
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
                state.clients[id] = Client(fd: fd)
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

    /// Sends the just-accepted client `fd` an error line saying `message`, without waiting for it to read, and
    /// closes it.
    private func refuse(_ fd: Int32, _ message: String) {
        _ = JSONObjectWriter.error(message).withUnsafeBytes { try? System.send(fd, $0, waiting: false) }
        System.close(fd)
    }
}
