import SingletonRegistry
import SystemCalls

/// The gpsd-protocol listener: a ``ConnectionServer`` speaking gpsd 3.22's JSON protocol
/// (``GPSDListenerHandler``) on a TCP socket.
///
/// Reports come from ``publish(_:)`` on any thread and go into each watching client's bounded queue. What a client
/// can cost is bounded by ``ClientLimits``.
package typealias GPSDListener = ConnectionServer<GPSDListenerHandler>

extension ConnectionServer where Served == GPSDListenerHandler {
    /// The address the listener is bound to.
    package var address: ListenAddress { handler.address }
    /// The device path the reports name: the daemon's source.
    package var devicePath: String { handler.devicePath }

    /// Sends a report to every client that watches for it: `tpv`, `sky`, `gst` or `att` is the JSON object without
    /// newline, sent with `\r\n` (a TPV with gpsd's timing members for the clients that asked for `timing`) and,
    /// but for `att`, kept for `?POLL;`; a sentence goes out as it is, with its own line end, to the clients that asked for `nmea` or
    /// `raw`; a time offset goes out as a `TOFF` to the clients that asked for `pps`.
    package func publish(_ report: GPSDListenerReport) {
        let logLines = state.withLock { state -> [String] in
            switch report {
            case .tpv(let object):
                state.shared.latestTPV = object
                let line = GPSDListenerLines.crlf(object)
                var timed: [UInt8]?
                return broadcast(state: &state) { policy in
                    guard policy.wantsReports else { return nil }
                    guard policy.timing else { return line }
                    if timed == nil {
                        timed = GPSDListenerLines.crlf(
                            GPSDListenerLines.withTiming(object, now: System.wallClockNanoseconds()))
                    }
                    return timed
                }
            case .sky(let object):
                state.shared.latestSKY = object
                let line = GPSDListenerLines.crlf(object)
                return broadcast(state: &state) { $0.wantsReports ? line : nil }
            case .gst(let object):
                state.shared.latestGST = object
                let line = GPSDListenerLines.crlf(object)
                return broadcast(state: &state) { $0.wantsReports ? line : nil }
            case .att(let object):
                let line = GPSDListenerLines.crlf(object)
                return broadcast(state: &state) { $0.wantsReports ? line : nil }
            case .nmea(let sentence):
                return broadcast(state: &state) { $0.wantsSentences ? sentence : nil }
            case .timeOffset(let real, let clock):
                let line = GPSDListenerLines.timeOffset(devicePath: devicePath, real: real, clock: clock)
                return broadcast(state: &state) { $0.wantsTimeOffsets ? line : nil }
            }
        }
        for text in logLines { logger.notice(text) }
        wake()
    }

    /// Notes that the source became active (at `activated`, milliseconds since 1970) or went (`nil`), whether its
    /// data was already `observed`, and with `announce` tells the watchers with a `DEVICE` line (gpsd sends the
    /// activation's DEVICE at the first data, see ``announceDevice(at:)``, and the loss's at once).
    package func setDevice(activated: Int64?, observed: Bool = false, announce: Bool = true) {
        let logLines = state.withLock { state -> [String] in
            guard (state.shared.activated == nil) != (activated == nil) else { return [] }
            state.shared.activated = activated
            state.shared.observed = activated != nil && observed
            if activated == nil {
                state.shared.latestSKY = nil
                state.shared.latestGST = nil
            }
            guard announce else { return [] }
            let line = GPSDListenerLines.device(
                path: devicePath, activated: activated, observed: false, serialSpeed: handler.serialSpeed)
            return broadcast(state: &state) { $0.wantsReports ? line : nil }
        }
        for text in logLines { logger.notice(text) }
        wake()
    }

    /// Tells the watchers with a `DEVICE` line that the active source sent its first data, at `activated`
    /// (milliseconds since 1970), which becomes the device's `activated` as in gpsd 3.22.
    package func announceDevice(at activated: Int64) {
        let logLines = state.withLock { state -> [String] in
            guard state.shared.activated != nil else { return [] }
            state.shared.activated = activated
            state.shared.observed = true
            let line = GPSDListenerLines.device(
                path: devicePath, activated: activated, observed: false, serialSpeed: handler.serialSpeed)
            return broadcast(state: &state) { $0.wantsReports ? line : nil }
        }
        for text in logLines { logger.notice(text) }
        wake()
    }

    /// The clients connected, those watching (getting reports or sentences), and the reports dropped for slow clients.
    package var statistics: GPSDListenerStatistics {
        state.withLock { state in
            GPSDListenerStatistics(
                clients: state.clients.count, watching: state.clients.values.count { $0.policy.watches },
                droppedReports: state.shared.droppedReports)
        }
    }

    /// The sockets of the clients connected, for tests that check their options.
    package var clientSockets: [Int32] {
        state.withLock { state in state.clients.values.map(\.fd) }
    }

    /// Queues for every client the line `line(policy)` gives for its policy, none where it gives `nil`; returns the
    /// log lines about slow clients.
    private func broadcast(state: inout State, line: (GPSDWatchPolicy) -> [UInt8]?) -> [String] {
        var logLines: [String] = []
        let now = timeline.now
        for id in Array(state.clients.keys) {
            guard let text = line(state.clients[id]!.policy) else { continue }
            let dropped = state.clients[id]!.enqueue(text, limit: limits.maximumQueuedBytes)
            guard dropped > 0 else { continue }
            state.shared.droppedReports += dropped
            switch state.drops.occurrence(of: "slow", at: now) {
            case .first: logLines.append("gpsd: client \(id) reads too slowly: dropping its oldest reports")
            case .summary(let count):
                logLines.append(
                    "gpsd: slow clients lost reports \(count) more times "
                        + "(\(state.shared.droppedReports) reports dropped in all)")
            case nil: break
            }
        }
        return logLines
    }
}
