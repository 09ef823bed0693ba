import Glibc
import SingletonRegistry
import SystemCalls

extension ConnectionServer where Served == ControlServerHandler {
    /// Creates the socket at `path` with mode 0600 and listens on it; call ``start(handler:)`` to serve.
    ///
    /// A socket file left by a dead daemon (nothing accepts on it) is replaced; a live one is not. A path that
    /// another user could change (``ControlPath/checkTrusted(_:)``) is refused before anything is looked at there.
    ///
    /// Dropped clients are logged once per reason, then summarised at most once a minute of `clock`.
    ///
    /// - Throws: ``ControlServerError`` when another daemon listens there, the path is not a socket, or a system
    ///   call fails.
    package static func bind(
        path: String, limits: ClientLimits = ClientLimits(), logger: LogWriter, clock: any Clock<Duration>
    ) throws(ControlServerError) -> ControlServer {
        func failure(_ reason: String) -> ControlServerError { ControlServerError(path: path, reason: reason) }
        func systemFailure(_ what: String, _ error: Errno) -> ControlServerError { failure("\(what): \(error)") }

        if let problem = ControlPath.checkTrusted(path) { throw failure(problem) }
        if let existing = try? System.linkStatus(ofPath: path) {
            guard existing.st_mode & S_IFMT == S_IFSOCK else {
                throw failure("the path exists and is not a socket; remove it or choose another --control path")
            }
            switch UnixSocket.connect(to: path) {
            case .success(let fd):
                let owner = System.peerUserID(fd)
                System.close(fd)
                if let owner, !UnixSocket.isTrusted(owner) {
                    throw failure(
                        "a process of uid \(owner) listens on it, not this daemon's user: another user may be "
                            + "squatting the path; use a private --control path")
                }
                throw failure("another singletond is already listening on it (stop it, or use another --control path)")
            case .failure(let error) where error.errorNumber == ECONNREFUSED:
                guard existing.st_uid == System.effectiveUserID() else {
                    throw failure(
                        "a stale socket of uid \(existing.st_uid) is there, not this daemon's user's; it is left alone "
                            + "(its owner can remove it), or use another --control path")
                }
                do throws(Errno) {
                    try System.unlink(path)
                } catch {
                    guard error.code == ENOENT else { throw systemFailure("cannot remove the stale socket", error) }
                }
                logger.notice("replaced the stale control socket \(path) left by a daemon that is gone")
            case .failure(let error):
                throw failure("cannot check the existing socket: \(System.errorMessage(error.errorNumber))")
            }
        }

        let fd: Int32
        switch UnixSocket.make(Int32(SOCK_STREAM.rawValue)) {
        case .success(let made): fd = made
        case .failure(let error): throw failure(error.description)
        }
        // The socket file is made 0600 right after it is bound, before `listen`: until then nobody can connect to
        // it, so the default mode of the short window grants nothing. (Narrowing the process's umask around
        // `bind` instead would narrow it for every other thread's files too.)
        let bound: Void?
        do throws(Errno) {
            bound = try UnixSocket.withAddress(path) { (address, length) throws(Errno) in
                try System.bind(fd, to: address, length: length)
            }
        } catch {
            System.close(fd)
            throw systemFailure(
                error.code == EADDRINUSE ? "another process created it meanwhile" : "cannot bind", error)
        }
        guard bound != nil else {
            System.close(fd)
            throw failure("the path is too long for a Unix socket (at most 107 bytes)")
        }
        try? System.changeMode(path, 0o600)
        let created = (try? System.status(ofPath: path)) ?? stat()
        do throws(Errno) {
            try System.listen(fd, backlog: 64)
        } catch {
            System.close(fd)
            try? System.unlink(path)
            throw systemFailure("cannot listen", error)
        }
        System.setNonBlocking(fd)
        let wake = WakePipe()
        guard wake.readEnd >= 0 else {
            System.close(fd)
            try? System.unlink(path)
            throw systemFailure("cannot create a pipe", Errno(code: wake.creationError))
        }
        let handler = ControlServerHandler(
            path: path, limits: limits, logger: logger,
            identity: (UInt64(created.st_dev), UInt64(created.st_ino)))
        return ControlServer(
            handler: handler, shared: ControlServerHandler.Shared(), listenFD: fd, wake: wake, logger: logger,
            clock: clock)
    }
}
