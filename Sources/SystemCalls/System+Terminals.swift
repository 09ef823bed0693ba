import Glibc

extension System {
    /// Whether `fd` is a terminal (`isatty(3)`).
    package static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// Makes the terminal `fd` exclusive (`TIOCEXCL`): nobody else can open it while we hold it.
    package static func makeExclusive(_ fd: Int32) throws(Errno) {
        guard ioctl(fd, UInt(TIOCEXCL)) == 0 else { throw Errno(code: errno) }
    }

    /// `tcgetattr(3)`.
    package static func terminalSettings(_ fd: Int32) throws(Errno) -> termios {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { throw Errno(code: errno) }
        return settings
    }

    /// `cfmakeraw(3)`, then both speeds (`cfsetispeed`, `cfsetospeed`).
    package static func makeRaw(_ settings: inout termios, speed: speed_t) throws(Errno) {
        cfmakeraw(&settings)
        guard cfsetispeed(&settings, speed) == 0, cfsetospeed(&settings, speed) == 0 else {
            throw Errno(code: errno)
        }
    }

    /// `tcsetattr(3)` at once, then `tcflush(3)` of both queues: what queued up before is stale.
    package static func apply(_ settings: termios, to fd: Int32) throws(Errno) {
        var settings = settings
        _ = try retrying { tcsetattr(fd, TCSANOW, &settings) }
        _ = tcflush(fd, TCIOFLUSH)
    }
}
