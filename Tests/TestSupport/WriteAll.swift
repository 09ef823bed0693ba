import Glibc
import SystemCalls
import Testing

/// Writes all of `bytes` to a blocking descriptor with `System.writeAll`: a socket (with `MSG_NOSIGNAL`, so a closed
/// peer is an error, not SIGPIPE), a pipe, a FIFO, a terminal or a file. Fails the test on an error.
package func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) throws {
    let isSocket = (try? System.status(of: fd)).map { $0.st_mode & S_IFMT == S_IFSOCK } ?? false
    do throws(Errno) {
        try System.writeAll(fd, Array(bytes), socket: isSocket)
    } catch {
        Issue.record("write: \(error)")
        throw error
    }
}

/// Writes all of `text`'s UTF-8 to a blocking descriptor, as ``writeAll(_:_:)-(_,Collection<UInt8>)`` does.
package func writeAll(_ fd: Int32, _ text: String) throws {
    try writeAll(fd, text.utf8)
}
