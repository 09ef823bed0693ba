import Glibc
import Synchronization
import SystemCalls

/// Speaks systemd's sd_notify protocol without libsystemd: one datagram per message to `$NOTIFY_SOCKET`.
///
/// The socket is a path or, when it starts with `@`, a Linux abstract socket. Without `$NOTIFY_SOCKET` (not run by
/// systemd with `Type=notify`) every send does nothing.
///
/// A send never waits: a socket whose queue is full (nobody reads it) or that is gone drops the message, and the
/// drops are counted (``droppedCount``), the first logged and later ones counted in the log at most once a minute.
package final class SDNotify: Sendable {
    /// The socket messages go to, as `$NOTIFY_SOCKET` names it; `nil` when notifications are off.
    package let socketPath: String?
    private let fd: Int32
    /// Where the first dropped message, and a count of later ones, is logged; `nil` logs nothing.
    private let logger: LogWriter?
    private let drops = Atomic<Int>(0)

    /// Reads `$NOTIFY_SOCKET` from `environment` and opens a datagram socket when it is set; dropped messages are
    /// logged to `logger`.
    package init(environment: [String: String], logger: LogWriter? = nil) {
        self.logger = logger
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

    /// How many messages were dropped: the socket did not take them at once, or is gone.
    package var droppedCount: Int { drops.load(ordering: .relaxed) }

    /// Sends `message` (`KEY=value` lines separated by newlines) without waiting; returns whether the datagram
    /// went out. One that does not is counted as dropped.
    @discardableResult
    package func send(_ message: String) -> Bool {
        guard let socketPath else { return false }
        let bytes = Array(message.utf8)
        let sent = Result { () throws(Errno) in
            try UnixSocket.withAddress(socketPath) { (address, length) throws(Errno) in
                try bytes.withUnsafeBufferPointer { (buffer) throws(Errno) in
                    try System.send(fd, UnsafeRawBufferPointer(buffer), to: address, length: length, waiting: false)
                }
            }
        }
        if case .success(let count?) = sent, count == bytes.count { return true }
        drop(message, because: sent)
        return false
    }

    /// Counts a message that did not go out, and logs the first drop (then a count at most once a minute).
    private func drop(_ message: String, because result: Result<Int?, Errno>) {
        drops.add(1, ordering: .relaxed)
        let reason =
            switch result {
            case .failure(let error) where error.code == EAGAIN || error.code == EWOULDBLOCK:
                "its queue is full (nobody reads it)"
            case .failure(let error): "\(error)"
            case .success(let count?): "only \(count) bytes went out"
            case .success(nil): "the name is too long for a socket address"
            }
        let kind = message.prefix { $0 != "=" }
        logger?.log(
            .warning, repeating: "sd_notify dropped",
            "systemd: \(kind) notification to \(socketPath ?? "") dropped: \(reason); later drops are counted"
        ) { "systemd: \($0) more notifications dropped" }
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
