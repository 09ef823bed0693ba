#if canImport(Glibc)
    import Glibc
#else
    #error("GNSSLocation's transport supports Linux (Glibc) only: port System.swift first")
#endif

/// A failed `getaddrinfo(3)`: its `EAI_` status, and `errno` for `EAI_SYSTEM`.
struct AddressError: Error {
    let status: Int32
    let errorNumber: Int32
}

/// Every system call of the location code, in one place: descriptors, `poll(2)`, sockets, name resolution,
/// terminals and the wall clock.
///
/// The rest of the module calls these and never Glibc's functions directly (it still takes Glibc's types and
/// constants); porting the transport to another platform starts, and should end, here. The daemon's `System`
/// makes the descriptor calls the two share (close, read, write, poll, fstat, pipe) through these. A call interrupted by a signal
/// (`EINTR`) is made again, except `close(2)`, which Linux must not repeat. A failure throws ``Errno``.
package enum System {
    // MARK: Threads

    /// Starts a detached thread that runs `body`, named `name` as far as the 15 bytes Linux keeps of a name.
    ///
    /// `pthread_create(3)` directly: `Foundation.Thread` would be the only reason for the daemon to load Foundation,
    /// whose libraries take most of its start-up.
    package static func startThread(named name: String, _ body: @escaping @Sendable () -> Void) throws(Errno) {
        let context = Unmanaged.passRetained(ThreadBody(name: name, body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
                System.nameCurrentThread(body.name)
                body.run()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw Errno(code: status)
        }
        _ = pthread_detach(thread)
    }

    /// Names the calling thread through `/proc/thread-self/comm` (Glibc's `pthread_setname_np` is not visible to
    /// Swift, and `prctl(2)` is variadic); a name is only for people reading `ps` or `/proc`, so failing is silent.
    private static func nameCurrentThread(_ name: String) {
        guard let fd = try? System.open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC) else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { try? System.write(fd, $0) }
        System.close(fd)
    }

    // MARK: Descriptors

    /// `open(2)`.
    static func open(_ path: String, _ flags: Int32) throws(Errno) -> Int32 {
        try retrying { Glibc.open(path, flags) }
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

    /// `send(2)` of `bytes` with `MSG_NOSIGNAL`: a closed peer is `EPIPE`, never SIGPIPE.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retrying { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
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

    /// `pipe(2)`, both ends non-blocking and closed on `exec`.
    package static func nonBlockingPipe() throws(Errno) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Errno(code: errno) }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }

    // MARK: Sockets

    /// `socket(2)`.
    static func socket(family: Int32, type: Int32, protocol: Int32) throws(Errno) -> Int32 {
        try retrying { Glibc.socket(family, type, `protocol`) }
    }

    /// `connect(2)` to `address`; a non-blocking socket throws `EINPROGRESS` while the connection is made.
    static func connect(_ fd: Int32, to address: addrinfo) throws(Errno) {
        guard Glibc.connect(fd, address.ai_addr, address.ai_addrlen) == 0 else { throw Errno(code: errno) }
    }

    /// `setsockopt(2)` of an integer option, ignoring failure: the options set here are refinements.
    static func setOption(_ fd: Int32, level: Int32, name: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The error a non-blocking `connect(2)` ended with (`SO_ERROR`), 0 for success.
    static func pendingSocketError(_ fd: Int32) throws(Errno) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { throw Errno(code: errno) }
        return code
    }

    /// `getaddrinfo(3)` for TCP to `host`:`port`; the list must be given to ``freeAddresses(_:)``. On failure,
    /// the `EAI_` status and, for `EAI_SYSTEM`, `errno`.
    static func addresses(
        host: String, port: UInt16
    ) -> Result<UnsafeMutablePointer<addrinfo>, AddressError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else { return .failure(AddressError(status: status, errorNumber: errno)) }
        return .success(list)
    }

    /// `freeaddrinfo(3)`.
    static func freeAddresses(_ list: UnsafeMutablePointer<addrinfo>) {
        freeaddrinfo(list)
    }

    /// The text of a `getaddrinfo(3)` status (`gai_strerror`).
    static func addressErrorMessage(_ status: Int32) -> String {
        String(cString: gai_strerror(status))
    }

    // MARK: Terminals

    /// Whether `fd` is a terminal (`isatty(3)`).
    static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// Makes the terminal `fd` exclusive (`TIOCEXCL`): nobody else can open it while we hold it.
    static func makeExclusive(_ fd: Int32) throws(Errno) {
        guard ioctl(fd, UInt(TIOCEXCL)) == 0 else { throw Errno(code: errno) }
    }

    /// `tcgetattr(3)`.
    static func terminalSettings(_ fd: Int32) throws(Errno) -> termios {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { throw Errno(code: errno) }
        return settings
    }

    /// `cfmakeraw(3)`, then both speeds (`cfsetispeed`, `cfsetospeed`).
    static func makeRaw(_ settings: inout termios, speed: speed_t) throws(Errno) {
        cfmakeraw(&settings)
        guard cfsetispeed(&settings, speed) == 0, cfsetospeed(&settings, speed) == 0 else {
            throw Errno(code: errno)
        }
    }

    /// `tcsetattr(3)` at once, then `tcflush(3)` of both queues: what queued up before is stale.
    static func apply(_ settings: termios, to fd: Int32) throws(Errno) {
        var settings = settings
        _ = try retrying { tcsetattr(fd, TCSANOW, &settings) }
        _ = tcflush(fd, TCIOFLUSH)
    }

    // MARK: Text and time

    /// The system's text for an `errno` value (`strerror_r`); `Unknown error N`, as `strerror` says, for a value
    /// it does not know.
    package static func errorMessage(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard strerror_r(code, &buffer, buffer.count) == 0 else { return "Unknown error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The wall clock (`CLOCK_REALTIME`) in milliseconds since 1970: for timestamps, never for a decision.
    package static func wallClockMilliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Runs `call` until it is not interrupted; throws `errno` when it returns -1. The daemon's `System` makes its
    /// calls through it too.
    package static func retrying<Value: BinaryInteger>(_ call: () -> Value) throws(Errno) -> Value {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = errno
            if code != EINTR { throw Errno(code: code) }
        }
    }
}

/// What a thread started by ``System/startThread(named:_:)`` runs, handed to it through `pthread_create(3)`.
private final class ThreadBody: Sendable {
    /// The thread's name.
    let name: String
    /// The thread's work.
    let run: @Sendable () -> Void

    /// A thread named `name` that does `run`.
    init(name: String, _ run: @escaping @Sendable () -> Void) {
        self.name = name
        self.run = run
    }
}
