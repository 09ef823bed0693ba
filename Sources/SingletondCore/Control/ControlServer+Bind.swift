import Foundation
import SingletonRegistry

#if canImport(Glibc)
    import Glibc
#endif

extension ControlServer {
    /// Creates the socket at `path` with mode 0600 and listens on it; call ``start(handler:)`` to serve.
    ///
    /// A socket file left by a dead daemon (nothing accepts on it) is replaced; a live one is not.
    ///
    /// Dropped clients are logged once per reason, then summarised at most once a minute of `clock`.
    ///
    /// - Throws: ``ControlServerError`` when another daemon listens there, the path is not a socket, or a system
    ///   call fails.
    package static func bind(
        path: String, limits: ControlServerLimits = ControlServerLimits(), logger: LogWriter, clock: any Clock<Duration>
    ) throws(ControlServerError) -> ControlServer {
        func failure(_ reason: String) -> ControlServerError { ControlServerError(path: path, reason: reason) }
        func systemFailure(_ what: String) -> ControlServerError {
            failure("\(what): \(String(cString: strerror(errno)))")
        }

        var existing = stat()
        if lstat(path, &existing) == 0 {
            guard existing.st_mode & S_IFMT == S_IFSOCK else {
                throw failure("the path exists and is not a socket; remove it or choose another --control path")
            }
            switch UnixSocket.connect(to: path) {
            case .success(let fd):
                let owner = UnixSocket.peerUserID(fd)
                close(fd)
                if let owner, !UnixSocket.isTrusted(owner) {
                    throw failure(
                        "a process of uid \(owner) listens on it, not this daemon's user: another user may be "
                            + "squatting the path; use a private --control path")
                }
                throw failure("another singletond is already listening on it (stop it, or use another --control path)")
            case .failure(let error) where error.errorNumber == ECONNREFUSED:
                guard existing.st_uid == geteuid() else {
                    throw failure(
                        "a stale socket of uid \(existing.st_uid) is there, not this daemon's user's; it is left alone "
                            + "(its owner can remove it), or use another --control path")
                }
                guard unlink(path) == 0 || errno == ENOENT else {
                    throw systemFailure("cannot remove the stale socket")
                }
                logger.notice("replaced the stale control socket \(path) left by a daemon that is gone")
            case .failure(let error):
                throw failure("cannot check the existing socket: \(String(cString: strerror(error.errorNumber)))")
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
        let bound = UnixSocket.withAddress(path) { address, length in Glibc.bind(fd, address, length) }
        let bindErrno = errno
        guard let bound else {
            close(fd)
            throw failure("the path is too long for a Unix socket (at most 107 bytes)")
        }
        guard bound == 0 else {
            close(fd)
            errno = bindErrno
            throw systemFailure(bindErrno == EADDRINUSE ? "another process created it meanwhile" : "cannot bind")
        }
        chmod(path, 0o600)
        var created = stat()
        stat(path, &created)
        guard listen(fd, 64) == 0 else {
            let error = systemFailure("cannot listen")
            close(fd)
            unlink(path)
            throw error
        }
        UnixSocket.setNonBlocking(fd)
        var wake: [Int32] = [-1, -1]
        guard pipe(&wake) == 0 else {
            let error = systemFailure("cannot create a pipe")
            close(fd)
            unlink(path)
            throw error
        }
        for end in wake {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            UnixSocket.setNonBlocking(end)
        }
        return ControlServer(
            path: path, limits: limits, logger: logger, clock: clock, listenFD: fd, wakeRead: wake[0],
            wakeWrite: wake[1], identity: (UInt64(created.st_dev), UInt64(created.st_ino)))
    }
}
