import Glibc
import SystemCalls

/// Speaks systemd's sd_notify protocol without libsystemd: one datagram per message to `$NOTIFY_SOCKET`.
///
/// The socket is a path or, when it starts with `@`, a Linux abstract socket. Without `$NOTIFY_SOCKET` (not run by
/// systemd with `Type=notify`) every send does nothing.
package final class SDNotify: Sendable {
    /// The socket messages go to, as `$NOTIFY_SOCKET` names it; `nil` when notifications are off.
    package let socketPath: String?
    private let fd: Int32

    /// Reads `$NOTIFY_SOCKET` from `environment` and opens a datagram socket when it is set.
    package init(environment: [String: String]) {
        guard let path = environment["NOTIFY_SOCKET"], path.hasPrefix("/") || path.hasPrefix("@"), path.count > 1,
            case .success(let fd) = UnixSocket.make(Int32(SOCK_DGRAM.rawValue))
        else {
            socketPath = nil
            fd = -1
            return
        }
        socketPath = path
        self.fd = fd
    }

    deinit {
        if fd >= 0 { System.close(fd) }
    }

    /// Whether messages are sent at all.
    package var isEnabled: Bool { socketPath != nil }

    /// Sends `message` (`KEY=value` lines separated by newlines); returns whether the datagram went out.
    @discardableResult
    package func send(_ message: String) -> Bool {
        guard let socketPath else { return false }
        let bytes = Array(message.utf8)
        let sent = try? UnixSocket.withAddress(socketPath) { (address, length) throws(Errno) in
            try bytes.withUnsafeBufferPointer { (buffer) throws(Errno) in
                try System.send(fd, UnsafeRawBufferPointer(buffer), to: address, length: length)
            }
        }
        return sent == bytes.count
    }

    /// Sends `READY=1` with a status line.
    @discardableResult
    package func ready(status: String) -> Bool { send("READY=1\nSTATUS=\(Self.oneLine(status))") }

    /// Sends `STATUS=` with `status` on one line.
    @discardableResult
    package func status(_ status: String) -> Bool { send("STATUS=\(Self.oneLine(status))") }

    /// Sends `STOPPING=1`.
    @discardableResult
    package func stopping() -> Bool { send("STOPPING=1") }

    /// Sends `WATCHDOG=1`.
    @discardableResult
    package func watchdog() -> Bool { send("WATCHDOG=1") }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
