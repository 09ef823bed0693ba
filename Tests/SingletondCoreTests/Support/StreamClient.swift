import Foundation
import SingletonRegistry
import Synchronization
import TestSupport

/// A test's connection to a control socket or to the gpsd listener: sends lines and reads lines with a bound on the
/// wait.
///
/// The bound only catches a hang (60 s unless a test names one): a test waits for the line, never for a duration,
/// and a loaded machine that delays a reply by seconds must not fail it.
///
/// Reads block a thread of their own (see ``blocking(_:)``); a client is used by one test task at a time.
final class StreamClient: Sendable {
    let fd: Int32
    private let buffer = SanitizerVisibleMutex<[UInt8]>([])

    /// Connects to `path`; `nil` when nothing listens there.
    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        guard rc == 0 else {
            close(fd)
            return nil
        }
    }

    /// Connects to TCP `port` on 127.0.0.1 (the gpsd listener); `nil` when nothing listens there. A
    /// `receiveBuffer` in bytes makes the kernel hold little for a client that does not read.
    init?(port: UInt16, receiveBuffer: Int32? = nil) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            close(fd)
            return nil
        }
    }

    private let closed = Atomic<Bool>(false)

    deinit { disconnect() }

    /// Closes the connection now (a reader thread may still hold the object for a moment).
    func disconnect() {
        if !closed.exchange(true, ordering: .relaxed) { close(fd) }
    }

    @discardableResult
    func send(_ text: String) -> Bool {
        send(bytes: Array(text.utf8))
    }

    /// Sends `bytes` (any bytes, not only UTF-8), blocking until all are sent; `false` when the send failed or
    /// stopped short (see ``limitSendTime(seconds:)``).
    @discardableResult
    func send(bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Makes a blocking send give up after `seconds` when the peer does not read.
    func limitSendTime(seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next line, or `nil` at end of stream or when none comes within `timeout` seconds.
    func readLine(timeout: Double = waitHangBound) async -> String? {
        await blocking { self.readLineNow(timeout: timeout) }
    }

    /// Reads lines until one contains `text`.
    func readLine(containing text: String, timeout: Double = waitHangBound) async -> String? {
        await blocking {
            let deadline = Date().addingTimeInterval(timeout)
            while let line = self.readLineNow(timeout: max(0.01, deadline.timeIntervalSinceNow)) {
                if line.contains(text) { return line }
            }
            return nil
        }
    }

    /// Reads lines until one contains `text`, on one thread: every line read, that one last; `nil` when none came
    /// within `timeout` seconds or the stream ended first. For a test that reads thousands of lines, which a
    /// thread per line would slow to a crawl on a loaded machine.
    func readLines(through text: String, timeout: Double = waitHangBound) async -> [String]? {
        await blocking {
            let deadline = Date().addingTimeInterval(timeout)
            var lines: [String] = []
            while let line = self.readLineNow(timeout: max(0.01, deadline.timeIntervalSinceNow)) {
                lines.append(line)
                if line.contains(text) { return lines }
            }
            return nil
        }
    }

    /// Reads until the peer closes; returns whether it did within `timeout` seconds.
    func readsToEnd(timeout: Double = waitHangBound) async -> Bool {
        await blocking {
            let deadline = Date().addingTimeInterval(timeout)
            while let chunk = self.readChunk(timeout: deadline.timeIntervalSinceNow) {
                if chunk.isEmpty { return true }
            }
            return false
        }
    }

    /// ``readLine(timeout:)`` on the calling thread, for a fixture that runs on a thread of its own.
    func readLineNow(timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let line = buffer.withLock { buffer -> String? in
                guard let newline = buffer.firstIndex(of: 0x0A) else { return nil }
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
            if let line { return line }
            guard let chunk = readChunk(timeout: deadline.timeIntervalSinceNow), !chunk.isEmpty else { return nil }
            buffer.withLock { $0.append(contentsOf: chunk) }
        }
    }

    /// Bytes received, `[]` at end of stream, `nil` on timeout or error.
    private func readChunk(timeout: Double) -> [UInt8]? {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        guard blockingPoll(&descriptors, timeout: timeout) == 1 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if count < 0 { return errno == ECONNRESET ? [] : nil }
        return Array(chunk[0..<count])
    }
}
