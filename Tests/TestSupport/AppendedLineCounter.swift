import Glibc

/// Counts the lines of a file another process is appending to, reading each byte once: a look at a file of
/// 50,000 lines costs what was appended since the last look, not the whole file again.
package final class AppendedLineCounter {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    /// The newlines read so far.
    package private(set) var lines = 0

    /// A counter of `path`'s lines; `nil` when it cannot be opened.
    package init?(path: String) {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
    }

    deinit { close(fd) }

    /// Reads what was appended since the last call and returns the lines counted in all.
    package func countAppended() -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return lines }
            lines += buffer.withUnsafeBytes { raw in
                let base = raw.baseAddress!
                var (newlines, offset) = (0, 0)
                while offset < count, let found = memchr(base + offset, 0x0A, count - offset) {
                    newlines += 1
                    offset = base.distance(to: UnsafeRawPointer(found)) + 1
                }
                return newlines
            }
        }
    }
}
