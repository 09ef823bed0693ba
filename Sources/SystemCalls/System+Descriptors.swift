import Glibc

extension System {
    /// `open(2)`; `mode` applies when `flags` create the file.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> Int32 {
        try retrying { Glibc.open(path, flags, mode) }
    }

    /// `openat(2)`: `name` relative to the directory `directory` (a descriptor, possibly `O_PATH`); `mode` applies
    /// when `flags` create the file.
    package static func open(relativeTo directory: Int32, _ name: String, _ flags: Int32, mode: mode_t = 0)
        throws(Errno) -> Int32
    {
        try retrying { openat(directory, name, flags, mode) }
    }

    /// `O_PATH`: a descriptor that only locates a file (a directory to walk from, a symbolic link itself), which
    /// Glibc's module map leaves out without _GNU_SOURCE. Linux gives it the same value on every architecture.
    package static let pathOnly: Int32 = 0o10_000_000

    /// The soft limit on the process's file descriptors (`getrlimit(2)`, `RLIMIT_NOFILE`): every descriptor it
    /// opens is numbered below it. `nil` when unlimited or unknown.
    package static func descriptorLimit() -> Int? {
        softLimit(RLIMIT_NOFILE)
    }

    /// The soft limit on the main thread's stack (`getrlimit(2)`, `RLIMIT_STACK`), in bytes, which Glibc also
    /// gives a thread started without a stack size. `nil` when unlimited or unknown.
    package static func stackLimit() -> Int? {
        softLimit(RLIMIT_STACK)
    }

    /// `getrlimit(2)`'s soft limit on `resource`; `nil` when unlimited, over `Int32.max` or unknown.
    private static func softLimit(_ resource: __rlimit_resource) -> Int? {
        var limit = rlimit()
        // `RLIM_INFINITY` is the largest `rlim_t`.
        guard getrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0, limit.rlim_cur <= Int32.max
        else { return nil }
        return Int(limit.rlim_cur)
    }

    /// `close(2)`, once, ignoring its result: the descriptor is gone either way.
    package static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// `read(2)` into `buffer`; 0 at the end of the input.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retrying { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// `write(2)` of `bytes`; returns how many the kernel took.
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retrying { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }

    /// `poll(2)` on `descriptors`, for at most `timeout` milliseconds (-1: no limit); returns how many are ready.
    package static func poll(_ descriptors: inout [pollfd], timeout: Int32) throws(Errno) -> Int {
        let count = nfds_t(descriptors.count)
        return try descriptors.withUnsafeMutableBufferPointer { (fds) throws(Errno) -> Int in
            Int(try retrying { Glibc.poll(fds.baseAddress, count, timeout) })
        }
    }

    /// `fstat(2)`.
    package static func status(of fd: Int32) throws(Errno) -> stat {
        var info = stat()
        _ = try retrying { fstat(fd, &info) }
        return info
    }

    /// `ftruncate(2)`: cuts the file `fd` (or extends it with zeros) to `length` bytes.
    package static func truncate(_ fd: Int32, to length: off_t) throws(Errno) {
        _ = try retrying { Glibc.ftruncate(fd, length) }
    }

    /// `pipe(2)`, both ends non-blocking and closed on `exec`.
    package static func nonBlockingPipe() throws(Errno) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Errno(code: errno) }
        for fd in ends {
            setNonBlocking(fd)
            setCloseOnExec(fd)
        }
        return (ends[0], ends[1])
    }

    /// Makes `fd` non-blocking (`fcntl(2)`, `F_SETFL` with `O_NONBLOCK`), ignoring failure.
    package static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Closes `fd` on `exec` (`fcntl(2)`, `F_SETFD` with `FD_CLOEXEC`), ignoring failure.
    package static func setCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
}
