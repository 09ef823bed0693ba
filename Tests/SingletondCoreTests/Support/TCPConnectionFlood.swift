import Foundation

/// Many TCP connections to 127.0.0.1 opened one right after the other, held open until ``close()``, and the first
/// line each got: the gpsd listener's `VERSION` for a client it took, its `ERROR` for one it refused.
final class TCPConnectionFlood: Sendable {
    let descriptors: [Int32]
    /// Why connections could not be opened, one entry per failure.
    let failures: [String]

    /// Opens `count` connections to `port`; `pause(i)` runs after the `i`th one.
    init(port: UInt16, count: Int, pause: (Int) -> Void = { _ in }) {
        var descriptors: [Int32] = []
        var failures: [String] = []
        for index in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                failures.append("socket: \(String(cString: strerror(errno)))")
                continue
            }
            var limit = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if rc == 0 {
                descriptors.append(fd)
            } else {
                failures.append("connect: \(String(cString: strerror(errno)))")
                Foundation.close(fd)
            }
            pause(index)
        }
        self.descriptors = descriptors
        self.failures = failures
    }

    /// The first line of every connection (`nil` where none came), read with one deadline for all.
    func firstLines(timeout: Double = 30) -> [String?] {
        var received = [[UInt8]](repeating: [], count: descriptors.count)
        var ended = [Bool](repeating: false, count: descriptors.count)
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while deadline.timeIntervalSinceNow > 0 {
            let open = descriptors.indices.filter { !ended[$0] && !received[$0].contains(0x0A) }
            if open.isEmpty { break }
            var fds = open.map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(max(1, deadline.timeIntervalSinceNow * 1_000)))
            if ready < 0, errno != EINTR { break }
            for (slot, index) in open.enumerated() where fds[slot].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(descriptors[index], $0.baseAddress!, $0.count) }
                if count > 0 {
                    received[index].append(contentsOf: chunk[0..<count])
                } else {
                    ended[index] = true
                }
            }
        }
        return received.map { bytes in
            bytes.firstIndex(of: 0x0A).map { String(decoding: bytes[..<$0], as: UTF8.self) }
        }
    }

    /// Closes every connection.
    func close() {
        for fd in descriptors { Foundation.close(fd) }
    }
}
