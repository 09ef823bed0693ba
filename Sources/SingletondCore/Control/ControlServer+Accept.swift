import Foundation
import SingletonRegistry

#if canImport(Glibc)
    import Glibc
#endif

/// Accepting clients on the poll thread: only this daemon's user and root, and at most
/// ``ControlServerLimits/maximumClients`` at a time; a refused client is told why, and the refusals are logged
/// without flooding the log.
extension ControlServer {
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
}
