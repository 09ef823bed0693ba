import GNSSLocation

/// Which of the location manager's state changes the daemon logs, and in what words.
///
/// Every change is logged, except while a source fails again and again for the same reason. Of such a run, the
/// first `reconnecting` line is logged, the first `waiting for a fix` (a connection opened) and the first `fixed`;
/// later `connecting`, `waiting for a fix`, `fixed` and identical `reconnecting` states are counted instead, with
/// one summary line at most every ``summaryInterval`` (after which the next fix is news again) and one when the run
/// ends (another reason, a stale source, a failure, a stop). A peer that accepts and closes at once, or one that
/// sends one fix per connection and closes, therefore costs a few lines a minute, not three a connection.
struct LocationStateLog {
    /// The shortest time between two lines about the same run of failures.
    static let summaryInterval: Duration = .seconds(60)

    /// A run of reconnections for one reason.
    private struct Run {
        var source: String
        var reason: String
        /// Reconnections counted since the last line about the run.
        var unlogged = 0
        /// Whether a connection of the run opened (and its `waiting for a fix` was logged).
        var connected = false
        /// Whether a fix came since the last line about the run (and its `fixed` was logged).
        var fixed = false
        /// Fixes counted since the last line about the run.
        var fixes = 0
        /// When the last line about the run was logged.
        var loggedAt: Duration
    }

    private var run: Run?
    /// The source of the previous state, to name the one that ended when the manager goes idle.
    private var previousSource: String?

    /// The lines to log for `state`, which arrived at `now` (the registry's clock, counted from the daemon's start).
    mutating func lines(for state: LocationState, at now: Duration) -> [(level: LogLevel, text: String)] {
        defer { previousSource = state.source }
        if var current = run, state.source == current.source {
            switch state {
            case .connecting:
                return []
            case .waitingForFix:
                // The first connection of the run that opens is news; the next ones are part of the run.
                guard !current.connected else { return [] }
                current.connected = true
                run = current
                return [Self.line(for: state, previousSource: previousSource)]
            case .fixed:
                // A source that gives a fix and then fails again for the same reason stays in the run: its first
                // fix is news (with the failures not yet logged), the next ones are counted.
                guard !current.fixed else {
                    current.fixes += 1
                    run = current
                    return []
                }
                var out = endRun()
                run = Run(source: current.source, reason: current.reason, connected: true, fixed: true, loggedAt: now)
                out.append(Self.line(for: state, previousSource: previousSource))
                return out
            case .reconnecting(_, _, let reason, _) where reason == current.reason:
                current.unlogged += 1
                guard now - current.loggedAt >= Self.summaryInterval else {
                    run = current
                    return []
                }
                let fixes = current.fixes > 0 ? ", \(Self.fixes(current.fixes)) between" : ""
                let line = (
                    LogLevel.notice, "location: \(state) (\(Self.times(current.unlogged)) since the last line\(fixes))"
                )
                run = Run(source: current.source, reason: reason, connected: current.connected, loggedAt: now)
                return [line]
            default:
                break
            }
        }
        var out = endRun()
        if case .reconnecting(let source, _, let reason, _) = state {
            run = Run(source: source, reason: reason, loggedAt: now)
        }
        out.append(Self.line(for: state, previousSource: previousSource))
        return out
    }

    /// The summary of the run of failures that ends, if it has reconnections not yet logged.
    private mutating func endRun() -> [(level: LogLevel, text: String)] {
        defer { run = nil }
        guard let run, run.unlogged > 0 else { return [] }
        let fixes = run.fixes > 0 ? " (\(Self.fixes(run.fixes)) between)" : ""
        return [
            (
                .notice,
                "location: reconnecting to \(run.source) failed \(Self.times(run.unlogged)) more: \(run.reason)"
                    + fixes
            )
        ]
    }

    private static func line(for state: LocationState, previousSource: String?) -> (level: LogLevel, text: String) {
        switch state {
        case .reconnecting, .stale: (.notice, "location: \(state)")
        case .failed: (.error, "location: \(state)")
        case .idle: (.info, "location: idle" + (previousSource.map { " (\($0) ended)" } ?? ""))
        default: (.info, "location: \(state)")
        }
    }

    private static func fixes(_ count: Int) -> String {
        count == 1 ? "a fix" : "\(count) fixes"
    }

    private static func times(_ count: Int) -> String {
        count == 1 ? "once" : "\(count) times"
    }
}
