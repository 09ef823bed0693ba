import Glibc
import SingletonRegistry
import SystemCalls

/// The gpsd-protocol listener: a TCP socket speaking gpsd 3.22's JSON protocol to clients such as `gpspipe`, `cgps`
/// and the `gps` Python module.
///
/// One thread runs a `poll(2)` loop over the listening socket, every client and a wake pipe. Requests are answered
/// on that thread from what the listener holds (the device, the latest TPV and SKY), so no request waits for the
/// registry. Reports come from ``publish(_:)`` on any thread: each client has its own bounded queue, written without
/// blocking, so a client that does not read loses its oldest reports and delays nobody.
///
/// What a client can cost is bounded by ``ClientLimits``.
package final class GPSDListener: Sendable {
    struct State {
        var clients: [Int: GPSDListenerClient] = [:]
        /// Whether the listener's thread was started: ``stop()`` waits for it only then.
        var started = false
        var nextID = 1
        var stopping = false
        var finished = false
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
        /// Since when the source is active (milliseconds since 1970), `nil` while it is not.
        var activated: Int64?
        /// The latest TPV and SKY objects, without newline, for `?POLL;`.
        var latestTPV: [UInt8]?
        var latestSKY: [UInt8]?
        /// Reports dropped for slow clients since the listener started.
        var droppedReports = 0
        var drops = RepeatLimiter<String>()
    }

    /// The `SO_SNDBUF` of each client's socket (Linux doubles it): what the kernel holds for a client that does not
    /// read is bounded like its queue, so that a stalled client loses its oldest reports instead of getting them
    /// late.
    static let socketSendBuffer: Int32 = 8 * 1_024

    /// The address the listener is bound to.
    package let address: ListenAddress
    /// The device path the reports name: the daemon's source.
    package let devicePath: String
    package let limits: ClientLimits
    let logger: LogWriter
    let timeline: Timeline
    let listenFD: Int32
    let wakeRead: Int32
    let wakeWrite: Int32
    let state = SanitizerVisibleMutex(State())

    init(
        address: ListenAddress, devicePath: String, limits: ClientLimits, logger: LogWriter,
        clock: any Clock<Duration>, listenFD: Int32, wake: (read: Int32, write: Int32)
    ) {
        self.address = address
        self.devicePath = devicePath
        self.limits = limits
        self.logger = logger
        self.timeline = Timeline(clock)
        self.listenFD = listenFD
        self.wakeRead = wake.read
        self.wakeWrite = wake.write
    }

    deinit {
        System.close(wakeRead)
        System.close(wakeWrite)
    }

    /// Starts serving on a thread of its own; throws when the system refuses another thread.
    package func start() throws(Errno) {
        state.withLock { $0.started = true }
        do throws(Errno) {
            try System.startThread(named: "singletond-gpsd") { [self] in self.run() }
        } catch {
            state.withLock { $0.started = false }
            throw error
        }
    }

    /// Closes every client and the socket, and returns when the listener's thread has ended (at once when it never
    /// started); a second call closes nothing more.
    package func stop() async {
        let (started, wasStopping) = state.withLock { state in
            defer { state.stopping = true }
            return (state.started, state.stopping)
        }
        guard started else {
            if !wasStopping { System.close(listenFD) }
            return
        }
        wake()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                if state.finished { return true }
                state.finishWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Sends a report to every client that watches: `tpv` or `sky` is the JSON object without newline, kept for
    /// `?POLL;` and sent with `\r\n`; a sentence goes out as it is, with its own line end.
    package func publish(_ report: GPSDListenerReport) {
        let logLines = state.withLock { state -> [String] in
            switch report {
            case .tpv(let object): state.latestTPV = object
            case .sky(let object): state.latestSKY = object
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
            guard (state.activated == nil) != (activated == nil) else { return [] }
            state.activated = activated
            if activated == nil { state.latestSKY = nil }
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
                droppedReports: state.droppedReports)
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
            state.droppedReports += dropped
            switch state.drops.occurrence(of: "slow", at: now) {
            case .first: logLines.append("gpsd: client \(id) reads too slowly: dropping its oldest reports")
            case .summary(let count): logLines.append("gpsd: slow clients lost reports \(count) more times")
            case nil: break
            }
        }
        return logLines
    }

    func wake() {
        _ = withUnsafeBytes(of: UInt8(1)) { try? System.write(wakeWrite, $0) }
    }
}
