/// Where ``LocationManager`` is with its position source.
public enum LocationState: Sendable, Hashable, CustomStringConvertible {
    /// No source is running.
    case idle
    /// The source is being opened.
    case connecting(source: String)
    /// The source is open and no fix has arrived yet (or the last report had no fix).
    case waitingForFix(source: String)
    /// Fixes arrive; the last one is ``LocationManager/lastFix``.
    case fixed(source: String)
    /// No fix arrived for ``LocationManager/staleAfter``.
    case stale(source: String)
    /// The source was lost; attempt `attempt` to reopen it comes `retryIn` after this state began, on the registry's
    /// clock.
    case reconnecting(source: String, attempt: Int, reason: String, retryIn: Duration)
    /// The source failed for good.
    case failed(source: String, message: String)

    /// A one-line summary for logs and status reports.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .connecting(let source): "connecting to \(source)"
        case .waitingForFix(let source): "waiting for a fix from \(source)"
        case .fixed(let source): "fixed (\(source))"
        case .stale(let source): "stale: no fix from \(source) lately"
        case .reconnecting(let source, let attempt, let reason, _):
            "reconnecting to \(source) (attempt \(attempt)): \(reason)"
        case .failed(let source, let message): "failed: \(source): \(message)"
        }
    }

    /// The source this state is about; `nil` when idle.
    public var source: String? {
        switch self {
        case .idle: nil
        case .connecting(let source), .waitingForFix(let source), .fixed(let source), .stale(let source),
            .reconnecting(let source, _, _, _), .failed(let source, _):
            source
        }
    }

    /// The short name of the case: `idle`, `connecting`, `waiting`, `fixed`, `stale`, `reconnecting` or `failed`.
    public var name: String {
        switch self {
        case .idle: "idle"
        case .connecting: "connecting"
        case .waitingForFix: "waiting"
        case .fixed: "fixed"
        case .stale: "stale"
        case .reconnecting: "reconnecting"
        case .failed: "failed"
        }
    }
}
