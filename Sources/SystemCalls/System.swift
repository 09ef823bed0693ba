#if canImport(Glibc)
    import Glibc
#else
    #error("SingletonRegistry's system calls support Linux (Glibc) only: port SystemCalls first")
#endif

/// Every system call the package makes, in one place: descriptors, files, sockets, name resolution, terminals,
/// threads, the process and its signals, and the wall clock.
///
/// `GNSSLocation` and `SingletondCore` call these and never Glibc's functions directly (they still take Glibc's
/// types and constants); porting them to another platform starts, and should end, in this module. Each call keeps
/// its system name where it has one. A call interrupted by a signal (`EINTR`) is made again through
/// ``retrying(_:)``, except `close(2)`, which Linux must not repeat, `pause(2)`, which exists to be interrupted, and
/// the `connect(2)` of a non-blocking socket, whose connection goes on after an interruption. A failure throws
/// ``Errno``.
package enum System {
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

    /// The wall clock (`CLOCK_REALTIME`) in nanoseconds since 1970: for timestamps, never for a decision.
    package static func wallClockNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    // MARK: Retrying

    /// Runs `call` until it is not interrupted (`EINTR`); throws `errno` when it returns -1.
    static func retrying<Value: BinaryInteger>(_ call: () -> Value) throws(Errno) -> Value {
        while true {
            let result = call()
            if result != -1 { return result }
            let code = errno
            if code != EINTR { throw Errno(code: code) }
        }
    }
}
