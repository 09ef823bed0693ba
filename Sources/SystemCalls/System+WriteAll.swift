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
        try bytes.withUnsafeBufferPointer { (elements) throws(Errno) -> Int in
            let buffer = UnsafeRawBufferPointer(elements)
            var offset = 0
            while offset < buffer.count {
                let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
                let written: Int
                do throws(Errno) {
                    written = try socket ? send(fd, rest) : write(fd, rest)
                } catch {
                    guard error.code == EAGAIN || error.code == EWOULDBLOCK, let waitingForRoom else { throw error }
                    var descriptors = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
                    let timeout = PollTimeout.milliseconds(waitingForRoom)
                    if (try? poll(&descriptors, timeout: timeout)) == 0 { return offset }
                    continue
                }
                guard written > 0 else { throw Errno(code: EIO) }
                offset += written
            }
            return offset
        }
    }
}
