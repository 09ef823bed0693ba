import Foundation
import Testing

/// A FIFO the test makes and holds open for reading and writing, closed by ``close()``.
///
/// Held read-write, the daemon's open of the other end does not wait for a peer, and a daemon reading it never sees
/// an end of file; a daemon writing it fills the pipe and then waits, since the test does not read.
struct HeldFIFO {
    let path: String
    /// The test's descriptor, close-on-exec so that no child inherits it.
    let fd: Int32

    init(_ path: String) throws {
        try #require(mkfifo(path, 0o600) == 0, "mkfifo \(path): errno \(errno)")
        let fd = open(path, O_RDWR | O_CLOEXEC)
        try #require(fd >= 0, "open \(path): errno \(errno)")
        self.path = path
        self.fd = fd
    }

    func close() { _ = Foundation.close(fd) }
}
