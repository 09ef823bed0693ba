import GNSSProtocol
import SingletonRegistry
import SystemCalls

/// Writes levelled log lines to a file descriptor (standard error), one `write(2)` per line, control characters
/// escaped (``GNSSProtocol/PrintableASCII/appendEscaped(_:to:)``).
///
/// A line is `2026-11-22T02:14:47.123Z info: message` on a terminal or file, and `<6>message` when standard error
/// is the systemd journal, which adds its own timestamps and reads the syslog priority from the prefix.
package final class LogWriter: Sendable {
    /// The least severe level written.
    package let minimumLevel: LogLevel
    /// Whether lines carry journal priority prefixes instead of timestamps.
    package let journalFormat: Bool
    private let fd: Int32
    /// Lines that can repeat for one cause, counted per cause in the time of `timeline`.
    private let repeats = SanitizerVisibleMutex(RepeatLimiter<String>())
    private let timeline: Timeline

    /// Creates a logger writing to `fd`, that times repeated lines on `clock` (the daemon's: the registry's clock).
    package init(minimumLevel: LogLevel, journalFormat: Bool, fd: Int32 = 2, clock: any Clock<Duration>) {
        self.minimumLevel = minimumLevel
        self.journalFormat = journalFormat
        self.fd = fd
        self.timeline = Timeline(clock)
    }

    /// Whether `fd` is the journal stream that systemd names in `$JOURNAL_STREAM` (`DEVICE:INODE`).
    package static func isJournal(fd: Int32 = 2, environment: [String: String]) -> Bool {
        guard let stream = environment["JOURNAL_STREAM"] else { return false }
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        guard let info = try? System.status(of: fd) else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// Whether a line at `level` would be written.
    package func isEnabled(_ level: LogLevel) -> Bool { level >= minimumLevel }

    /// Writes `message` at `level`, on one line.
    package func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(level) else { return }
        var line: [UInt8] = []
        line.reserveCapacity(128)
        if journalFormat {
            line.append(contentsOf: "<\(level.syslogPriority)>".utf8)
        } else {
            line.append(contentsOf: Self.now().iso8601.utf8)
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: level.description.utf8)
            line.append(contentsOf: ": ".utf8)
        }
        // Whatever the message quotes (a gpsd ERROR, a peer's reason, a path) reaches a terminal or the journal
        // as text: no byte of it can act as a terminal's command or end the line.
        PrintableASCII.appendEscaped(message(), to: &line)
        line.append(0x0A)
        // A log line that cannot be written is dropped: there is nowhere to report it.
        _ = try? System.writeAll(fd, line)
    }

    /// Writes a line that can repeat for one `cause` (a client looping on a request, a job run again and again) at
    /// most once a minute: the first occurrence as `message`, later ones counted, and with the first occurrence
    /// after a minute, their number as `count(n)` (or `message`, when it is the only one).
    package func log(
        _ level: LogLevel, repeating cause: String, _ message: @autoclosure () -> String,
        count: (Int) -> String
    ) {
        let now = timeline.now
        switch repeats.withLock({ $0.occurrence(of: cause, at: now) }) {
        case .first, .summary(count: 1): log(level, message())
        case .summary(let times): log(level, count(times))
        case nil: break
        }
    }

    /// Logs at ``LogLevel/trace``.
    package func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }
    /// Logs at ``LogLevel/debug``.
    package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Logs at ``LogLevel/info``.
    package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at ``LogLevel/notice``.
    package func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    /// Logs at ``LogLevel/warning``.
    package func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Logs at ``LogLevel/error``.
    package func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    private static func now() -> GNSSTime {
        GNSSTime(millisecondsSince1970: System.wallClockMilliseconds())
    }
}
