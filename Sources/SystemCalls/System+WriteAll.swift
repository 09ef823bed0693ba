import Glibc

extension System {
    /// Writes all of `bytes` to `fd`, going on after short writes; returns how many went out, which is fewer than
    /// all only when `waitingForRoom` is given and a wait for room timed out.
    ///
    /// - Parameters:
    ///   - socket: `send(2)` with `MSG_NOSIGNAL` (a closed peer is `EPIPE`, never SIGPIPE) instead of `write(2)`.
    ///   - waitingForRoom: how long to wait each time `fd` takes nothing more (`EAGAIN`, from a non-blocking
    ///     descriptor or a blocking one's `SO_SNDTIMEO`). `nil` throws `EAGAIN` at once; a duration waits with
    ///     `poll(2)` for `POLLOUT`, and a wait that times out ends the write (a failed `poll(2)` writes again).
    /// - Throws: the first failure of a write; `EIO` for a write that takes nothing.
    @discardableResult
    package static func writeAll(
        _ fd: Int32, _ bytes: [UInt8], socket: Bool = false, waitingForRoom: Duration? = nil
    ) throws(Errno) -> Int {
        var written = 0
        try writeAll(fd, bytes, written: &written, waitingForRoom: waitingForRoom) { (fd, rest) throws(Errno) in
            try socket ? send(fd, rest) : write(fd, rest)
        }
        return written
    }

    /// Writes all of `bytes` to `fd` through `writer` (`write(2)`, or a test's writer that fails on purpose), going
    /// on after short writes, counting in `written` how many went out: all of them, or, after a failure or a wait for
    /// room that timed out, the part before it (for a caller that takes a partial line back).
    package static func writeAll(
        _ fd: Int32, _ bytes: [UInt8], written: inout Int, waitingForRoom: Duration? = nil,
        using writer: (Int32, UnsafeRawBufferPointer) throws(Errno) -> Int
    ) throws(Errno) {
        written = 0
        var offset = 0
        defer { written = offset }
        try bytes.withUnsafeBufferPointer { (elements) throws(Errno) in
            let buffer = UnsafeRawBufferPointer(elements)
            while offset < buffer.count {
                let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
                let count: Int
                do throws(Errno) {
                    count = try writer(fd, rest)
                } catch {
                    guard error.code == EAGAIN || error.code == EWOULDBLOCK, let waitingForRoom else { throw error }
                    var descriptors = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
                    let timeout = PollTimeout.milliseconds(waitingForRoom)
                    if (try? poll(&descriptors, timeout: timeout)) == 0 { return }
                    continue
                }
                guard count > 0 else { throw Errno(code: EIO) }
                offset += count
            }
        }
    }
}
