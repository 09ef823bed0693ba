import GNSSLocation

#if canImport(Glibc)
    import Glibc
#else
    #error("singletond supports Linux (Glibc) only: port System.swift first")
#endif

/// A system call's failure: the location code's type, whose text is the system's (`strerror`).
typealias Errno = GNSSLocation.Errno

/// Every system call of the daemon, in one place: descriptors, files, sockets, the process and its signals, and
/// the wall clock.
///
/// The rest of the module calls these and never Glibc's functions directly (it still takes Glibc's types and
/// constants); porting the daemon to another platform starts here and in the location code's `System`, which makes
/// the descriptor calls both modules share. A call interrupted by a signal
/// (`EINTR`) is made again, except `close(2)`, which Linux must not repeat, and `pause(2)`, which exists to be
/// interrupted. A failure throws ``Errno``.
enum System {
    // MARK: Descriptors

    /// `open(2)`; `mode` applies when `flags` create the file.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> Int32 {
        try retrying { Glibc.open(path, flags, mode) }
    }

    /// `openat(2)`: `name` relative to the directory `directory` (a descriptor, possibly `O_PATH`); `mode` applies
    /// when `flags` create the file.
    static func open(relativeTo directory: Int32, _ name: String, _ flags: Int32, mode: mode_t = 0) throws(Errno)
        -> Int32
    {
        try retrying { openat(directory, name, flags, mode) }
    }

    /// `O_PATH`: a descriptor that only locates a file (a directory to walk from, a symbolic link itself), which
    /// Glibc's module map leaves out without _GNU_SOURCE. Linux gives it the same value on every architecture.
    static let pathOnly: Int32 = 0o10_000_000

    /// `close(2)`, once: the location code's call.
    static func close(_ fd: Int32) { GNSSLocation.System.close(fd) }

    /// `read(2)` into `buffer`, retried on `EINTR`: the location code's call.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try GNSSLocation.System.read(fd, into: buffer)
    }

    /// `write(2)` of `bytes`, retried on `EINTR`: the location code's call.
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try GNSSLocation.System.write(fd, bytes)
    }

    /// `write(2)` of all of `bytes`, going on after short writes; a write that takes nothing is `EIO`.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let written = try write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            guard written > 0 else { throw Errno(code: EIO) }
            offset += written
        }
    }

    /// `poll(2)` on `descriptors` for at most `timeout` ms (-1: no limit): the location code's call.
    static func poll(_ descriptors: inout [pollfd], timeout: Int32) throws(Errno) -> Int {
        try GNSSLocation.System.poll(&descriptors, timeout: timeout)
    }

    /// `ftruncate(2)`: cuts the file `fd` (or extends it with zeros) to `length` bytes.
    static func truncate(_ fd: Int32, to length: off_t) throws(Errno) {
        _ = try retrying { Glibc.ftruncate(fd, length) }
    }

    /// `fstat(2)`: the location code's call.
    static func status(of fd: Int32) throws(Errno) -> stat { try GNSSLocation.System.status(of: fd) }

    /// `pipe(2)`, both ends non-blocking and closed on `exec`: the location code's call.
    static func nonBlockingPipe() throws(Errno) -> (read: Int32, write: Int32) {
        try GNSSLocation.System.nonBlockingPipe()
    }

    /// Makes `fd` non-blocking (`fcntl(2)`, `F_SETFL` with `O_NONBLOCK`), ignoring failure, as every caller did.
    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Closes `fd` on `exec` (`fcntl(2)`, `F_SETFD` with `FD_CLOEXEC`), ignoring failure.
    static func setCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// Whether `fd` is a terminal (`isatty(3)`).
    static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    // MARK: Files

    /// `stat(2)`: what `path` leads to, following a symbolic link.
    static func status(ofPath path: String) throws(Errno) -> stat {
        var info = stat()
        _ = try retrying { stat(path, &info) }
        return info
    }

    /// `lstat(2)`: `path` itself, a symbolic link not followed.
    static func linkStatus(ofPath path: String) throws(Errno) -> stat {
        var info = stat()
        _ = try retrying { lstat(path, &info) }
        return info
    }

    /// `fstatat(2)` with `AT_SYMLINK_NOFOLLOW`: `name` in the directory `directory` itself, a link not followed.
    static func linkStatus(relativeTo directory: Int32, _ name: String) throws(Errno) -> stat {
        var info = stat()
        _ = try retrying { fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) }
        return info
    }

    /// `readlinkat(2)`: the target of the symbolic link `name` in `directory` (an empty `name` reads the link that
    /// `directory` itself is, opened with `O_PATH | O_NOFOLLOW`). A target longer than `PATH_MAX` is
    /// `ENAMETOOLONG`.
    static func readLink(relativeTo directory: Int32, _ name: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try buffer.withUnsafeMutableBufferPointer { bytes throws(Errno) in
            try retrying { readlinkat(directory, name, bytes.baseAddress!, bytes.count) }
        }
        guard count < buffer.count else { throw Errno(code: ENAMETOOLONG) }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `mkdir(2)`.
    static func makeDirectory(_ path: String, mode: mode_t) throws(Errno) {
        _ = try retrying { mkdir(path, mode) }
    }

    /// `chmod(2)`.
    static func changeMode(_ path: String, _ mode: mode_t) throws(Errno) {
        _ = try retrying { chmod(path, mode) }
    }

    /// `unlink(2)`.
    static func unlink(_ path: String) throws(Errno) {
        _ = try retrying { Glibc.unlink(path) }
    }

    // MARK: Sockets

    /// `socket(2)`.
    static func socket(family: Int32, type: Int32, protocol: Int32) throws(Errno) -> Int32 {
        try retrying { Glibc.socket(family, type, `protocol`) }
    }

    /// `bind(2)` to `address`.
    static func bind(_ fd: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t) throws(Errno) {
        _ = try retrying { Glibc.bind(fd, address, length) }
    }

    /// `listen(2)` with room for `backlog` connections waiting to be accepted.
    static func listen(_ fd: Int32, backlog: Int32) throws(Errno) {
        _ = try retrying { Glibc.listen(fd, backlog) }
    }

    /// `accept(2)`; a non-blocking socket with nobody waiting throws `EAGAIN`.
    static func accept(_ fd: Int32) throws(Errno) -> Int32 {
        try retrying { Glibc.accept(fd, nil, nil) }
    }

    /// `connect(2)` of a blocking Unix-domain socket to `address`. Made again when interrupted: Linux leaves such a
    /// socket unconnected when a signal ends the wait for the listener's backlog.
    static func connect(_ fd: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t) throws(Errno) {
        _ = try retrying { Glibc.connect(fd, address, length) }
    }

    /// `send(2)` of `bytes` with `MSG_NOSIGNAL` (a closed peer is `EPIPE`, never SIGPIPE), and with `MSG_DONTWAIT`
    /// unless `waiting`; returns how many the kernel took.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, waiting: Bool = true) throws(Errno) -> Int {
        let flags = Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT))
        return try retrying { Glibc.send(fd, bytes.baseAddress, bytes.count, flags) }
    }

    /// `sendto(2)` of the datagram `bytes` to `address`, with `MSG_NOSIGNAL`; returns how many bytes went out.
    static func send(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, to address: UnsafePointer<sockaddr>, length: socklen_t
    ) throws(Errno) -> Int {
        try retrying { sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), address, length) }
    }

    /// `setsockopt(2)` of a time option (`SO_RCVTIMEO`, `SO_SNDTIMEO`), ignoring failure: a socket without the
    /// limit still works, only waits longer.
    static func setTimeOption(_ fd: Int32, name: Int32, _ value: timeval) {
        var value = value
        _ = setsockopt(fd, SOL_SOCKET, name, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// `setsockopt(2)` of an integer socket option (`SO_REUSEADDR`), ignoring failure: the socket works without it.
    static func setOption(_ fd: Int32, level: Int32, name: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The user ID of the process at the other end of the connected Unix socket `fd` (`getsockopt(2)`,
    /// `SO_PEERCRED`), or `nil` when the kernel does not say.
    static func peerUserID(_ fd: Int32) -> UInt32? {
        // `struct ucred` (pid, uid, gid), which Glibc's module map leaves out without _GNU_SOURCE.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, length == 12 else { return nil }
        return credentials.uid
    }

    // MARK: The process

    /// The real user ID (`getuid(2)`).
    static func userID() -> UInt32 {
        getuid()
    }

    /// The effective user ID (`geteuid(2)`): whose rights the process has.
    static func effectiveUserID() -> UInt32 {
        geteuid()
    }

    /// The process's environment, as `environ` holds it (a variable without `=` is left out).
    static func environment() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }

    /// Starts a detached thread that runs `body`: the location code's call.
    static func startThread(named name: String, _ body: @escaping @Sendable () -> Void) throws(Errno) {
        try GNSSLocation.System.startThread(named: name, body)
    }

    /// The process ID (`getpid(2)`).
    static func processID() -> Int32 {
        getpid()
    }

    /// Blocks `signals` in the calling thread (`pthread_sigmask(3)`, `SIG_BLOCK`); threads it starts afterwards
    /// inherit the block.
    static func blockSignals(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signo in signals { sigaddset(&set, signo) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Ignores `signo` in the whole process (`signal(2)` with `SIG_IGN`).
    static func ignoreSignal(_ signo: Int32) {
        _ = signal(signo, SIG_IGN)
    }

    /// `pause(2)`: sleeps until a signal is handled; the caller sleeps again in a loop.
    static func pause() {
        _ = Glibc.pause()
    }

    /// `exit(3)`: ends the process with `status` after the `atexit` handlers and flushing C's streams.
    static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// `_exit(2)`: ends the process with `status` at once, running nothing: for when a shutdown hangs.
    static func exitImmediately(_ status: Int32) -> Never {
        _exit(status)
    }

    // MARK: Text and time

    /// The system's text for an `errno` value, as the location code's `System` gives it.
    static func errorMessage(_ code: Int32) -> String {
        GNSSLocation.System.errorMessage(code)
    }

    /// The wall clock (`CLOCK_REALTIME`) in milliseconds since 1970: for timestamps, never for a decision.
    static func wallClockMilliseconds() -> Int64 {
        GNSSLocation.System.wallClockMilliseconds()
    }

    /// Runs `call` until it is not interrupted; throws `errno` when it returns -1 (the location code's helper).
    private static func retrying<Value: BinaryInteger>(_ call: () -> Value) throws(Errno) -> Value {
        try GNSSLocation.System.retrying(call)
    }
}
