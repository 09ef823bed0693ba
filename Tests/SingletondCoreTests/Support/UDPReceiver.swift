import Foundation
import TestSupport
import Testing

/// A UDP socket the test owns on 127.0.0.1, the destination of a client that sends datagrams (`gps2udp`).
///
/// Its receive buffer holds 4 MB (as far as `net.core.rmem_max` allows without root): a client that relays a
/// whole log at once sends hundreds of datagrams faster than a test reads them, and a full buffer drops them.
final class UDPReceiver: Sendable {
    let fd: Int32
    /// The port the socket is bound to (the kernel chose it).
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0, "socket: \(String(cString: strerror(errno)))")
        var size: Int32 = 4 << 20
        let sizeLength = socklen_t(MemoryLayout<Int32>.size)
        if setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeLength) != 0 {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeLength)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        if !bound { close(fd) }
        try #require(bound, "bind 127.0.0.1:0: \(String(cString: strerror(errno)))")
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(fd) }

    /// The next datagram, or `nil` when none comes within `timeout` seconds (a bound, not a pacing).
    func receive(timeout: Double = waitHangBound) async -> [UInt8]? {
        await blocking { [fd] in
            var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            guard blockingPoll(&descriptors, timeout: timeout) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            return count >= 0 ? Array(buffer[0..<count]) : nil
        }
    }
}
