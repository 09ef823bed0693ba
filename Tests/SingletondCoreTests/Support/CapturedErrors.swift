import Foundation
import Testing

/// A pipe that stands in for a client's standard error: ``fd`` to write to, ``text()`` for what was written.
struct CapturedErrors: ~Copyable {
    /// The write end, to hand to the code under test.
    let fd: Int32
    private let readEnd: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0, "pipe: errno \(errno)")
        readEnd = ends[0]
        fd = ends[1]
    }

    deinit { close(readEnd) }

    /// Closes the write end and returns everything written to it (up to 4 KiB).
    consuming func text() -> String {
        close(fd)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = read(readEnd, &buffer, buffer.count)
        return String(decoding: buffer[0..<max(count, 0)], as: UTF8.self)
    }
}
