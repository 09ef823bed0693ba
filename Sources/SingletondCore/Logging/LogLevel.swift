/// How severe a log line is, from ``trace`` (least) to ``error`` (most).
package enum LogLevel: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Every step, for debugging the daemon itself.
    case trace
    /// Details useful when something goes wrong.
    case debug
    /// Normal operation worth a line: source opened, survey finished.
    case info
    /// Something normal but significant: a source lost, a client dropped.
    case notice
    /// Something is wrong but the daemon carries on.
    case warning
    /// The daemon cannot do what it was asked.
    case error

    /// Parses the name `--log-level` takes.
    package init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = level
    }

    /// Orders levels by severity.
    package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The name: `trace`, `debug`, `info`, `notice`, `warning` or `error`.
    package var description: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        }
    }

    /// The syslog priority the journal files the line under (`<7>` debug ... `<3>` err).
    package var syslogPriority: Int {
        switch self {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        }
    }
}
