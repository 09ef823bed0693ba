import SingletonRegistry

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

    /// Sends a report to every client that watches: `tpv` or `sky` is the JSON object without newline, kept for
    /// `?POLL;` and sent with `\r\n`; a sentence goes out as it is, with its own line end.
    package func publish(_ report: GPSDListenerReport) {
        let logLines = state.withLock { state -> [String] in
            switch report {
            case .tpv(let object): state.shared.latestTPV = object
            case .sky(let object): state.shared.latestSKY = object
            case .nmea(let sentence): return broadcast(sentence, state: &state, sentence: true)
            }
            return broadcast(GPSDListenerLines.crlf(report.object), state: &state)
        }
        for text in logLines { logger.notice(text) }
        wake()
    }

    /// Notes that the source became active (at `activated`, milliseconds since 1970) or went (`nil`), and tells
    /// the watchers with a `DEVICE` line.
    package func setDevice(activated: Int64?) {
        let logLines = state.withLock { state -> [String] in
            guard (state.shared.activated == nil) != (activated == nil) else { return [] }
            state.shared.activated = activated
            if activated == nil { state.shared.latestSKY = nil }
            return broadcast(GPSDListenerLines.device(path: devicePath, activated: activated), state: &state)
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

    /// Queues `line` for every watcher of JSON reports, or of raw sentences when `sentence` is set; returns the log
    /// lines about slow clients.
    private func broadcast(_ line: [UInt8], state: inout State, sentence: Bool = false) -> [String] {
        var logLines: [String] = []
        let now = timeline.now
        for id in Array(state.clients.keys)
        where sentence ? state.clients[id]!.policy.wantsSentences : state.clients[id]!.policy.wantsReports {
            let dropped = state.clients[id]!.enqueue(line, limit: limits.maximumQueuedBytes)
            guard dropped > 0 else { continue }
            state.shared.droppedReports += dropped
            switch state.drops.occurrence(of: "slow", at: now) {
            case .first: logLines.append("gpsd: client \(id) reads too slowly: dropping its oldest reports")
            case .summary(let count): logLines.append("gpsd: slow clients lost reports \(count) more times")
            case nil: break
            }
        }
        return logLines
    }
}
