#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls around Unix-domain sockets that the control server and client share.
enum UnixSocket {
    /// Why a socket call failed: the operation, the path and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var errorNumber: Int32

        var description: String { "cannot \(operation) \(path): \(String(cString: strerror(errorNumber)))" }
    }

    /// Calls `body` with `path` as a `sockaddr_un`; `nil` when the path does not fit (108 bytes on Linux).
    /// A path starting with `@` names an abstract socket (Linux), as systemd writes `$NOTIFY_SOCKET`.
    static func withAddress<R>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
    ) -> R? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.dropFirst().contains(0) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let length = MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }

    /// The user ID of the process at the other end of connected socket `fd` (`SO_PEERCRED`), or `nil` if unknown.
    static func peerUserID(_ fd: Int32) -> UInt32? {
        #if canImport(Glibc)
            // `struct ucred` (pid, uid, gid), which Glibc's module map leaves out without _GNU_SOURCE.
            var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
            var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, length == 12 else { return nil }
            return credentials.uid
        #else
            var uid = uid_t()
            var gid = gid_t()
            return getpeereid(fd, &uid, &gid) == 0 ? uid : nil
        #endif
    }

    /// Whether a peer of user `uid` may talk to this process: the same user, or root.
    static func isTrusted(_ uid: UInt32) -> Bool {
        uid == geteuid() || uid == 0
    }

    /// A new socket of `type` with close-on-exec, or the error number.
    static func make(_ type: Int32) -> Result<Int32, Failure> {
        #if canImport(Glibc)
            let fd = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, type, 0)
        #endif
        return fd >= 0
            ? .success(fd) : .failure(Failure(operation: "create a socket for", path: "", errorNumber: errno))
    }

    /// Connects a new stream socket to `path`.
    static func connect(to path: String) -> Result<Int32, Failure> {
        let fd: Int32
        switch make(Int32(SOCK_STREAM.rawValue)) {
        case .success(let made): fd = made
        case .failure(let failure): return .failure(failure)
        }
        let result = withAddress(path) { address, length -> Int32 in
            while true {
                let rc = Glibc.connect(fd, address, length)
                if rc == 0 { return 0 }
                if errno != EINTR { return errno }
            }
        }
        guard let result else {
            close(fd)
            return .failure(Failure(operation: "connect to", path: path, errorNumber: ENAMETOOLONG))
        }
        guard result == 0 else {
            close(fd)
            return .failure(Failure(operation: "connect to", path: path, errorNumber: result))
        }
        return .success(fd)
    }

    /// Makes `fd` non-blocking.
    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    /// Writes all of `bytes` to a blocking descriptor; `false` on error.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
