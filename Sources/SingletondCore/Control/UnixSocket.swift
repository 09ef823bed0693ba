import Glibc
import SystemCalls

/// Unix-domain socket addresses, and the socket steps that the control server, the client and the systemd
/// notifications share, made with the calls of SystemCalls' `System`.
enum UnixSocket {
    /// Why a socket call failed: the operation, the path and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var errorNumber: Int32

        var description: String { "cannot \(operation) \(path): \(System.errorMessage(errorNumber))" }
    }

    /// Calls `body` with `path` as a `sockaddr_un`; `nil` when the path does not fit (108 bytes on Linux).
    /// A path starting with `@` names an abstract socket (Linux), as systemd writes `$NOTIFY_SOCKET`.
    static func withAddress<R, E: Error>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(E) -> R
    ) throws(E) -> R? {
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
        return try withUnsafePointer(to: &address) { (pointer) throws(E) -> R in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(E) -> R in
                try body(address, socklen_t(length))
            }
        }
    }

    /// Whether a peer of user `uid` may talk to this process: the same user, or root.
    static func isTrusted(_ uid: UInt32) -> Bool {
        uid == System.effectiveUserID() || uid == 0
    }

    /// A new socket of `type` with close-on-exec, or the error number.
    static func make(_ type: Int32) -> Result<Int32, Failure> {
        Result { () throws(Errno) in
            try System.socket(family: AF_UNIX, type: type | Int32(SOCK_CLOEXEC.rawValue), protocol: 0)
        }
        .mapError { Failure(operation: "create a socket for", path: "", errorNumber: $0.code) }
    }

    /// Connects a new stream socket to `path`.
    static func connect(to path: String) -> Result<Int32, Failure> {
        let fd: Int32
        switch make(Int32(SOCK_STREAM.rawValue)) {
        case .success(let made): fd = made
        case .failure(let failure): return .failure(failure)
        }
        do throws(Errno) {
            let connected: Void? = try withAddress(path) { (address, length) throws(Errno) in
                try System.connect(fd, to: address, length: length)
            }
            guard connected != nil else {
                System.close(fd)
                return .failure(Failure(operation: "connect to", path: path, errorNumber: ENAMETOOLONG))
            }
        } catch {
            System.close(fd)
            return .failure(Failure(operation: "connect to", path: path, errorNumber: error.code))
        }
        return .success(fd)
    }
}
