import Foundation

/// Many connections to a control socket opened one right after the other, held open until ``close()``.
///
/// Each connect may wait while the daemon's listen backlog is full, at most 10 s, and all of them at most 60 s. Each connection then sends one
/// status request, and ``outcomes(timeout:)`` reads what the daemon made of each: a status (it was accepted) or a
/// refusal (it was told and closed).
final class ConnectionFlood: Sendable {
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

    /// Opens `count` connections to `path`; `pause(i)` runs after the `i`th one.
    init(path: String, count: Int, pause: (Int) -> Void = { _ in }) {
        var descriptors: [Int32] = []
        var failures: [String] = []
        let deadline = Date().addingTimeInterval(60)
        for index in 0..<count {
            guard deadline.timeIntervalSinceNow > 0 else {
                failures.append("gave up after 60 s with \(descriptors.count) of \(count) connections open")
                break
            }
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                failures.append("socket: \(String(cString: strerror(errno)))")
                continue
            }
            var limit = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + path.utf8.count + 1)
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
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

    /// Sends a status request on every connection and reads, with one deadline for all, what each got: a full
    /// first line, and for a refusal also the end of the stream.
    func outcomes(timeout: Double = 30) -> [Outcome] {
        let request = Array("{\"cmd\":\"status\"}\n".utf8)
        for fd in descriptors {
            // A refused connection may be closed already (EPIPE): its refusal is still there to read.
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
        var received = [[UInt8]](repeating: [], count: descriptors.count)
        var ended = [Bool](repeating: false, count: descriptors.count)
        func settled(_ index: Int) -> Bool {
            guard let newline = received[index].firstIndex(of: 0x0A) else { return ended[index] }
            return ended[index] || received[index][..<newline].starts(with: Array("{\"class\":\"STATUS\"".utf8))
        }
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while deadline.timeIntervalSinceNow > 0 {
            let open = descriptors.indices.filter { !settled($0) }
            if open.isEmpty { break }
            var fds = open.map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(max(1, deadline.timeIntervalSinceNow * 1_000)))
            if ready < 0, errno != EINTR { break }
            for (slot, index) in open.enumerated() where fds[slot].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(descriptors[index], $0.baseAddress!, $0.count) }
                if count > 0 {
                    received[index].append(contentsOf: chunk[0..<count])
                } else if count == 0 || errno == ECONNRESET {
                    ended[index] = true
                }
            }
        }
        return descriptors.indices.map { index in
            let line = received[index].firstIndex(of: 0x0A).map {
                String(decoding: received[index][..<$0], as: UTF8.self)
            }
            guard settled(index), let line else { return .other(line) }
            if line.hasPrefix("{\"class\":\"STATUS\"") { return .served }
            return ended[index] ? .refused(line) : .other(line)
        }
    }

    /// Closes every connection.
    func close() {
        for fd in descriptors { Foundation.close(fd) }
    }
}
