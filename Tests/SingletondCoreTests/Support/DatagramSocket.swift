import Foundation
import TestSupport

/// A datagram socket the test owns, bound to a path (or an abstract name starting with `@`), standing in for
/// systemd's `$NOTIFY_SOCKET`.
final class DatagramSocket: Sendable {
    let fd: Int32
    let name: String

    init(name: String) {
        self.name = name
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        precondition(fd >= 0)
        let rc = Self.withAddress(name) { bind(fd, $0, $1) }
        precondition(rc == 0, "bind \(name): \(String(cString: strerror(errno)))")
    }

    /// Fills the socket's queue from a sender of its own, one small datagram at a time without waiting, until the
    /// kernel refuses one (`EAGAIN`: the queue is full, as that of a socket nobody reads becomes); returns how many
    /// it took.
    func fillQueue() -> Int {
        let sender = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        precondition(sender >= 0)
        defer { close(sender) }
        var count = 0
        while true {
            let sent = Self.withAddress(name) { address, length in
                sendto(sender, "FILL", 4, Int32(MSG_DONTWAIT), address, length)
            }
            guard sent == 4 else {
                precondition(errno == EAGAIN, "send to \(name): \(String(cString: strerror(errno)))")
                return count
            }
            count += 1
        }
    }

    /// Calls `body` with the address of `name` (a path, or an abstract name starting with `@`).
    private static func withAddress<R>(_ name: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    deinit { close(fd) }

    /// The next datagram, or `nil` when none comes within `timeout` seconds (a bound, not a pacing).
    func receive(timeout: Double = waitHangBound) -> String? {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        guard blockingPoll(&descriptors, timeout: timeout) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Receives datagrams until one contains `text`; returns it, or `nil` on timeout.
    func receive(containing text: String, timeout: Double = waitHangBound) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while let message = receive(timeout: max(0.01, deadline.timeIntervalSinceNow)) {
            if message.contains(text) { return message }
        }
        return nil
    }
}
