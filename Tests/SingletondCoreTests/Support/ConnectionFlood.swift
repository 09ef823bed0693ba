import Foundation
import TestSupport

/// Many connections to one of the daemon's sockets opened one right after the other, held open until ``close()``.
///
/// Each connect may wait while the daemon's listen backlog is full, at most 10 s, and all of them at most 60 s. The
/// control socket's flood then sends each a status request, and ``outcomes(timeout:)`` reads what the daemon made of
/// each: a status (it was accepted) or a refusal (it was told and closed). The gpsd listener's speaks first:
/// ``firstLines(timeout:)`` reads its `VERSION` for a client it took, its `ERROR` for one it refused.
final class ConnectionFlood: Sendable {
    /// Where the flood connects.
    enum Address {
        /// A Unix-domain socket at this path (the control socket).
        case unix(String)
        /// 127.0.0.1 at this port (the gpsd listener).
        case loopback(UInt16)
    }

    /// What one connection of the flood got.
    enum Outcome: Equatable {
        /// A `STATUS` answer: the daemon took the client.
        case served
        /// This line, then the end of the stream.
        case refused(String)
        /// Something else (the line, or `nil` when nothing came in time).
        case other(String?)
    }

    let descriptors: [Int32]
    /// Why connections could not be opened, one entry per failure.
    let failures: [String]

    /// Opens `count` connections to `address`; `pause(i)` runs after the `i`th one.
    init(_ address: Address, count: Int, pause: (Int) -> Void = { _ in }) {
        var descriptors: [Int32] = []
        var failures: [String] = []
        let deadline = Date().addingTimeInterval(60)
        for index in 0..<count {
            guard deadline.timeIntervalSinceNow > 0 else {
                failures.append("gave up after 60 s with \(descriptors.count) of \(count) connections open")
                break
            }
            switch Self.connect(to: address) {
            case .success(let fd): descriptors.append(fd)
            case .failure(let failure): failures.append(failure.message)
            }
            pause(index)
        }
        self.descriptors = descriptors
        self.failures = failures
    }

    private struct Failure: Error {
        var message: String
    }

    private static func connect(to address: Address) -> Result<Int32, Failure> {
        let family = if case .unix = address { AF_UNIX } else { AF_INET }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(Failure(message: "socket: \(String(cString: strerror(errno)))")) }
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let rc: Int32
        switch address {
        case .unix(let path):
            var unix = sockaddr_un()
            unix.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &unix.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + path.utf8.count + 1)
            rc = withUnsafePointer(to: &unix) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
            }
        case .loopback(let port):
            var inet = sockaddr_in()
            inet.sin_family = sa_family_t(AF_INET)
            inet.sin_port = port.bigEndian
            inet.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            rc = withUnsafePointer(to: &inet) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard rc == 0 else {
            let message = "connect: \(String(cString: strerror(errno)))"
            Foundation.close(fd)
            return .failure(Failure(message: message))
        }
        return .success(fd)
    }

    /// Sends a status request on every connection and reads, with one deadline for all, what each got: a full
    /// first line, and for a refusal also the end of the stream.
    func outcomes(timeout: Double = waitHangBound) -> [Outcome] {
        let request = Array("{\"cmd\":\"status\"}\n".utf8)
        for fd in descriptors {
            // A refused connection may be closed already (EPIPE): its refusal is still there to read.
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
        let status = Array("{\"class\":\"STATUS\"".utf8)
        let streams = read(timeout: timeout) { received, ended in
            guard let newline = received.firstIndex(of: 0x0A) else { return ended }
            return ended || received[..<newline].starts(with: status)
        }
        return streams.map { received, ended, settled in
            let line = received.firstIndex(of: 0x0A).map { String(decoding: received[..<$0], as: UTF8.self) }
            guard settled, let line else { return .other(line) }
            if line.hasPrefix("{\"class\":\"STATUS\"") { return .served }
            return ended ? .refused(line) : .other(line)
        }
    }

    /// The first line of every connection (`nil` where none came), read with one deadline for all.
    func firstLines(timeout: Double = waitHangBound) -> [String?] {
        read(timeout: timeout) { received, ended in ended || received.contains(0x0A) }.map { received, _, _ in
            received.firstIndex(of: 0x0A).map { String(decoding: received[..<$0], as: UTF8.self) }
        }
    }

    /// Reads every connection until `settled` says it has what it needs, with one deadline for all: what each
    /// received, whether its stream ended, and whether it settled in time.
    private func read(
        timeout: Double, settled: ([UInt8], Bool) -> Bool
    ) -> [(received: [UInt8], ended: Bool, settled: Bool)] {
        var received = [[UInt8]](repeating: [], count: descriptors.count)
        var ended = [Bool](repeating: false, count: descriptors.count)
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while deadline.timeIntervalSinceNow > 0 {
            let open = descriptors.indices.filter { !settled(received[$0], ended[$0]) }
            if open.isEmpty { break }
            var fds = open.map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
            let ready = blockingPoll(&fds, timeout: deadline.timeIntervalSinceNow)
            if ready < 0 || blockingWasCancelled { break }
            for (slot, index) in open.enumerated() where fds[slot].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptors[index], $0.baseAddress!, $0.count) }
                if count > 0 {
                    received[index].append(contentsOf: chunk[0..<count])
                } else if count == 0 || errno == ECONNRESET {
                    ended[index] = true
                }
            }
        }
        return descriptors.indices.map { (received[$0], ended[$0], settled(received[$0], ended[$0])) }
    }

    /// Closes every connection.
    func close() {
        for fd in descriptors { Foundation.close(fd) }
    }
}
