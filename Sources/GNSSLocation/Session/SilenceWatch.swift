import SingletonRegistry

/// Notices a gpsd that has stopped talking, so that its connection is given up instead of waited on for ever.
///
/// Silence is timed by the ``ByteReader``'s thread, only while it waits in `poll(2)` for the peer: while the session
/// decodes or delivers, the reader is held back by flow control, and a slow consumer is not a silent peer; and an
/// answer counts the moment it reaches the reader, not when a busy cooperative pool gets round to decoding it. After
/// ``timeout`` of silence the watch sends the ``probe`` if there is one (gpsd answers `?VERSION;` even when it has no
/// device, and an idle gpsd is legitimately quiet); only silence for another ``timeout`` after it is a stall. Without a
/// probe the first ``timeout`` of silence is one. The answer's ``timeout`` counts from when the probe was sent, so a
/// watch that wakes late still gives the peer all of it. The session watches only gpsd connections: an NMEA source
/// has nothing to ask and, as in gpsd, a quiet one is kept.
final class SilenceWatch: Sendable {
    /// How long a silence may last before the watch acts.
    let timeout: Duration
    /// The session's clock: silences are measured in its time.
    private let timeline: Timeline
    private let state = SanitizerVisibleMutex(State())

    private struct State {
        /// When the session started waiting for bytes; `nil` while it works on some.
        var waitingSince: Duration?
        /// The last probe: the silence it was sent in, identified by when that began, and when it was sent.
        var probe: (silence: Duration, sent: Duration)?
        /// Why the connection was given up, once it was.
        var stall: String?
        /// The watch, while it waits for a silence to begin.
        var idle: CheckedContinuation<Void, Never>?
    }

    /// A watch that acts after `timeout` of silence, measured on `timeline`.
    init(timeout: Duration, timeline: Timeline) {
        self.timeout = timeout
        self.timeline = timeline
    }

    /// The reader waits for the peer's next bytes, since `start` (now, unless a test backdates it); a silence already
    /// being timed goes on (a `poll` that returned without data, or was interrupted, does not restart it).
    func waiting(since start: Duration? = nil) {
        let start = start ?? timeline.now
        let idle = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waitingSince == nil { state.waitingSince = start }
            defer { state.idle = nil }
            return state.idle
        }
        idle?.resume()
    }

    /// Bytes arrived from the peer.
    func received() {
        state.withLock { $0.waitingSince = nil }
    }

    /// Why the connection was given up for a stall, or `nil` if it was not.
    var stall: String? { state.withLock { $0.stall } }

    /// Watches until cancelled or until it finds a stall, which it records and then ends the reading with `stop`.
    ///
    /// `probe` names a request the peer must answer and sends it, returning `false` if it could not be sent at once
    /// (a peer that stopped reading has stalled too). `source` names the peer in the stall's description. While
    /// no silence is being timed the watch sleeps on no clock: it waits for ``waiting(since:)``.
    func run(source: String, probe: (request: String, send: @Sendable () -> Bool)?, stop: @Sendable () -> Void) async {
        let silence = Self.describe(timeout)
        while !Task.isCancelled {
            let (since, lastProbe) = state.withLock { ($0.waitingSince, $0.probe) }
            guard let since else {
                await untilSilence()
                continue
            }
            let probedAt = lastProbe.flatMap { $0.silence == since ? $0.sent : nil }
            let deadline = (probedAt ?? since) + timeout
            if timeline.now < deadline {
                guard (try? await timeline.sleep(until: deadline)) != nil else { return }
                continue
            }
            guard let probe else {
                return giveUp("\(source) sent nothing for \(silence) (stalled)", stop: stop)
            }
            if probedAt != nil {
                return giveUp(
                    "\(source) sent nothing for \(silence) and did not answer \(probe.request) within \(silence) (stalled)",
                    stop: stop)
            }
            let sent = timeline.now
            state.withLock { $0.probe = (since, sent) }
            if !probe.send() {
                return giveUp(
                    "\(source) sent nothing for \(silence) and did not take \(probe.request) (stalled)", stop: stop)
            }
        }
    }

    /// Returns once a silence is being timed, or the task is cancelled.
    private func untilSilence() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.waitingSince != nil || Task.isCancelled { return true }
                    state.idle = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let idle = state.withLock { state in
                defer { state.idle = nil }
                return state.idle
            }
            idle?.resume()
        }
    }

    private func giveUp(_ reason: String, stop: @Sendable () -> Void) {
        state.withLock { $0.stall = reason }
        stop()
    }

    /// `10 s` for whole seconds, else `200 ms`.
    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(milliseconds) ms"
    }
}
