import Glibc

extension System {
    // MARK: Threads

    /// Starts a detached thread that runs `body`, named `name` as far as the 15 bytes Linux keeps of a name, and
    /// returns it.
    ///
    /// `pthread_create(3)` directly: `Foundation.Thread` would be the only reason for the daemon to load Foundation,
    /// whose libraries take most of its start-up.
    @discardableResult
    package static func startThread(named name: String, _ body: @escaping @Sendable () -> Void) throws(Errno)
        -> pthread_t
    {
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
        return thread
    }

    /// `pthread_kill(3)`: sends `signo` to `thread` of this process.
    package static func pthreadKill(_ thread: pthread_t, _ signo: Int32) {
        _ = pthread_kill(thread, signo)
    }

    /// Names the calling thread through `/proc/thread-self/comm` (Glibc's `pthread_setname_np` is not visible to
    /// Swift, and `prctl(2)` is variadic); a name is only for people reading `ps` or `/proc`, so failing is silent.
    private static func nameCurrentThread(_ name: String) {
        guard let fd = try? open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC) else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { try? write(fd, $0) }
        close(fd)
    }

    // MARK: Memory

    /// `mmap(2)` of `bytes` of address space that cannot be touched (`PROT_NONE`, nothing committed): it succeeds
    /// only while the address space limit (`RLIMIT_AS`, `ulimit -v`) leaves room for that many more bytes. Give it
    /// back with ``munmap(_:bytes:)``.
    package static func mmap(reserving bytes: Int) throws(Errno) -> UnsafeMutableRawPointer {
        let address = Glibc.mmap(nil, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else { throw Errno(code: errno) }
        return address
    }

    /// `munmap(2)`: gives back `bytes` of address space at `address`.
    package static func munmap(_ address: UnsafeMutableRawPointer, bytes: Int) {
        _ = Glibc.munmap(address, bytes)
    }

    // MARK: The process

    /// The real user ID (`getuid(2)`).
    package static func userID() -> UInt32 {
        getuid()
    }

    /// The effective user ID (`geteuid(2)`): whose rights the process has.
    package static func effectiveUserID() -> UInt32 {
        geteuid()
    }

    /// The process ID (`getpid(2)`).
    package static func processID() -> Int32 {
        getpid()
    }

    /// The process's environment, as `environ` holds it (a variable without `=` is left out).
    package static func environment() -> [String: String] {
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

    // MARK: Signals and exit

    /// Blocks `signals` in the calling thread (`pthread_sigmask(3)`, `SIG_BLOCK`); threads it starts afterwards
    /// inherit the block.
    package static func blockSignals(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signo in signals { sigaddset(&set, signo) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// `sigtimedwait(2)`: takes one of `signals` (blocked in the calling thread) when one is pending, waiting for
    /// one at most `timeout` (for ever when `nil`); `nil` when the time is up.
    package static func sigtimedwait(_ signals: [Int32], timeout: Duration?) -> Int32? {
        var set = sigset_t()
        sigemptyset(&set)
        for signo in signals { sigaddset(&set, signo) }
        while true {
            let signo: Int32
            if let timeout {
                let (seconds, attoseconds) = max(timeout, .zero).components
                var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
                signo = Glibc.sigtimedwait(&set, nil, &time)
            } else {
                signo = Glibc.sigwaitinfo(&set, nil)
            }
            if signo > 0 { return signo }
            if errno == EAGAIN { return nil }
        }
    }

    /// Ignores `signo` in the whole process (`signal(2)` with `SIG_IGN`).
    package static func ignoreSignal(_ signo: Int32) {
        _ = signal(signo, SIG_IGN)
    }

    /// `pause(2)`: sleeps until a signal is handled; the caller sleeps again in a loop.
    package static func pause() {
        _ = Glibc.pause()
    }

    /// `exit(3)`: ends the process with `status` after the `atexit` handlers and flushing C's streams.
    package static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// `_exit(2)`: ends the process with `status` at once, running nothing: for when a shutdown hangs.
    package static func exitImmediately(_ status: Int32) -> Never {
        _exit(status)
    }
}
