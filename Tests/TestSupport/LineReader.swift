import Foundation
import SingletonRegistry
import Synchronization

/// Reads lines from a pipe (a child's standard output or error), waiting with a bound, and keeps every line read
/// for failure messages.
package final class LineReader: Sendable {
    private let fd: Int32
    private let state = SanitizerVisibleMutex<(buffer: [UInt8], lines: [String], ended: Bool)>(([], [], false))

    /// Reads `fd`, which the reader now owns and closes.
    package init(fd: Int32) {
        self.fd = fd
    }

    /// A reader with nothing to read: at its end from the start (a child whose output was not piped).
    package static func ended() -> LineReader {
        let reader = LineReader(fd: -1)
        reader.state.withLock { $0.ended = true }
        reader.closed.store(true, ordering: .relaxed)
        return reader
    }

    deinit { close() }

    /// Closes the read end, so that the writer's next write fails with EPIPE; reads end.
    package func close() {
        state.withLock { $0.ended = true }
        if !closed.exchange(true, ordering: .relaxed) { _ = Foundation.close(fd) }
    }

    private let closed = Atomic<Bool>(false)

    /// Every line read so far.
    package var history: [String] { state.withLock { $0.lines } }

    /// The next line, or `nil` at end of stream or when none comes within `timeout` seconds.
    package func nextLine(timeout: Double = waitHangBound) async -> String? {
        await blocking { self.nextLineNow(deadline: Date().addingTimeInterval(timeout)) }
    }

    /// Reads lines until one contains `text`; `nil` at end of stream or after `timeout` seconds.
    package func line(containing text: String, timeout: Double = waitHangBound) async -> String? {
        await blocking {
            let deadline = Date().addingTimeInterval(timeout)
            while let line = self.nextLineNow(deadline: deadline) {
                if line.contains(text) { return line }
            }
            return nil
        }
    }

    /// Reads until the end of the stream (the child closed it); returns the remaining lines.
    package func rest(timeout: Double = waitHangBound) async -> [String] {
        await blocking {
            let deadline = Date().addingTimeInterval(timeout)
            var lines: [String] = []
            while let line = self.nextLineNow(deadline: deadline) { lines.append(line) }
            return lines
        }
    }

    private func nextLineNow(deadline: Date) -> String? {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let (line, ended) = state.withLock { state -> (String?, Bool) in
                guard let newline = state.buffer.firstIndex(of: 0x0A) else { return (nil, state.ended) }
                let line = String(decoding: state.buffer[..<newline], as: UTF8.self)
                state.buffer.removeSubrange(...newline)
                state.lines.append(line)
                return (line, false)
            }
            if let line { return line }
            if ended { return nil }
            let remaining = deadline.timeIntervalSinceNow
            var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            guard blockingPoll(&descriptors, timeout: remaining) == 1 else { return nil }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            state.withLock { state in
                if count <= 0 { state.ended = true } else { state.buffer.append(contentsOf: chunk[0..<count]) }
            }
        }
    }
}
