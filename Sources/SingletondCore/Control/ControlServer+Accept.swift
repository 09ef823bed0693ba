import Glibc
import SystemCalls

/// Accepting clients on the poll thread: only this daemon's user and root, and at most
/// ``ClientLimits/maximumClients`` at a time; a refused client is told why, and the refusals are logged
/// once, then counted. Out of file descriptors, the ``ConnectionAcceptor`` sheds waiting clients.
extension ControlServer {
    func acceptClients(_ acceptor: inout ConnectionAcceptor) {
        while let fd = acceptor.accept(now: timeline.now, refusal: { JSONObjectWriter.error($0) }) {
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
            // A flood of refused clients, or clients churning at the limit, must not flood the log (nor block this
            // thread on a slow log): the first refusal is logged, the next ones counted, with a count a minute at most.
            let (accepted, refusal) = state.withLock { state -> (Int?, RepeatLimiter<String>.Verdict?) in
                guard state.clients.count < limits.maximumClients else {
                    return (nil, state.drops.occurrence(of: Self.tooManyClients, at: timeline.now))
                }
                let id = state.nextID
                state.nextID += 1
                state.clients[id] = Client(fd: fd, lastActivity: timeline.now)
                return (id, nil)
            }
            if let id = accepted {
                logger.debug("control: client \(id) connected")
                continue
            }
            refuse(fd, "too many clients (\(limits.maximumClients)); try again later")
            switch refusal {
            case .first:
                let limit = limits.maximumClients
                logger.warning("control: \(limit) clients connected; refusing new ones until one leaves")
            case .summary(let count):
                logger.warning("control: refused \(count) more clients: \(Self.tooManyClients)")
            case nil: break
            }
        }
    }

    /// The cause under which refusals at the client limit are counted.
    static let tooManyClients = "too many clients"

    /// Sends the just-accepted client `fd` an error line saying `message`, without waiting for it to read, and
    /// closes it.
    private func refuse(_ fd: Int32, _ message: String) {
        ConnectionAcceptor.refuse(fd, with: JSONObjectWriter.error(message))
    }
}
