import Glibc

/// A self-pipe that wakes a thread blocked in `poll(2)`: the read end becomes readable once ``signal()`` is called.
final class WakePipe: Sendable {
    /// The end to poll for `POLLIN`; -1 when the pipe could not be created.
    let readEnd: Int32
    private let writeEnd: Int32
    /// `errno` of a failed creation, else 0.
    let creationError: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for fd in ends {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            creationError = 0
        } else {
            creationError = errno
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if readEnd >= 0 { Glibc.close(readEnd) }
        if writeEnd >= 0 { Glibc.close(writeEnd) }
    }

    /// Makes the read end readable; idempotent (the byte stays until the pipe is closed).
    func signal() {
        guard writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(writeEnd, &byte, 1)
    }
}
