import Glibc
import Testing

/// Writes all of `bytes` to a blocking descriptor: a socket (with `MSG_NOSIGNAL`, so a closed peer is an error, not
/// SIGPIPE), a pipe, a FIFO, a terminal or a file. Retries interrupted and short writes; fails the test on an error.
package func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) throws {
    let bytes = Array(bytes)
    var offset = 0
    while offset < bytes.count {
        let sent = bytes.withUnsafeBytes {
            send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
        }
        let written =
            sent >= 0 || errno != ENOTSOCK
            ? sent : bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0, errno == EINTR { continue }
        try #require(written > 0, "write: \(String(cString: strerror(errno)))")
        offset += written
    }
}

/// Writes all of `text`'s UTF-8 to a blocking descriptor, as ``writeAll(_:_:)-(_,Collection<UInt8>)`` does.
package func writeAll(_ fd: Int32, _ text: String) throws {
    try writeAll(fd, text.utf8)
}
