import Glibc
import SingletonRegistry
import SystemCalls

/// gpsd 3.22's JSON protocol on a ``ConnectionServer``, for clients such as `gpspipe`, `cgps` and the `gps` Python
/// module.
///
/// Requests are answered on the poll thread from what the listener holds (the device, the latest TPV and SKY), so no
/// request waits for the registry. Each client has its own bounded queue of lines, written without blocking, so a
/// client that does not read loses its oldest reports and delays nobody. A client that watches nothing is closed
/// after ``ClientLimits/idleTimeout`` without a request.
package struct GPSDListenerHandler: ConnectionHandler {
    /// What the listener keeps for all its clients.
    package struct Shared: Sendable {
        /// Since when the source is active (milliseconds since 1970), `nil` while it is not: when it opened, until
        /// its first data, then when that came, as gpsd 3.22's `activated`.
        var activated: Int64?
        /// Whether the active source's data was seen: until then, as in gpsd, its DEVICE names no driver and
        /// `?POLL;` counts it inactive.
        var observed = false
        /// The latest TPV, SKY and GST objects, without newline, for `?POLL;`.
        var latestTPV: [UInt8]?
        var latestSKY: [UInt8]?
        var latestGST: [UInt8]?
        /// Reports dropped for slow clients since the listener started.
        var droppedReports = 0
    }

    /// The `SO_SNDBUF` of each client's socket (Linux doubles it): what the kernel holds for a client that does not
    /// read is bounded like its queue, so that a stalled client loses its oldest reports instead of getting them
    /// late.
    static let socketSendBuffer: Int32 = 32 * 1_024

    /// The address the listener is bound to.
    package let address: ListenAddress
    /// The device path the reports name: the daemon's source.
    package let devicePath: String
    /// The line speed of a serial source, whose settings DEVICE reports as gpsd does for a serial port; `nil` for
    /// any other source.
    package var serialSpeed: Int? = nil
    /// The limits on clients.
    package let limits: ClientLimits

    package var name: String { "gpsd listener" }
    package var logPrefix: String { "gpsd" }
    package var threadName: String { "singletond-gpsd" }

    package func errorLine(_ message: String) -> [UInt8] { GPSDListenerLines.error(message) }

    /// A small kernel buffer, so that a client that does not read loses reports from its queue here instead of
    /// having them pile up, ever older, in the kernel; and no Nagle wait on replies.
    package func admit(_ fd: Int32) -> (message: String, reason: String)? {
        System.setOption(fd, level: SOL_SOCKET, name: SO_SNDBUF, Self.socketSendBuffer)
        System.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, 1)
        return nil
    }

    /// The client, greeted with the `VERSION` object.
    package func makeClient(fd: Int32, now: Duration) -> GPSDListenerClient {
        var client = GPSDListenerClient(fd: fd, now: now)
        _ = client.enqueue(GPSDListenerLines.version, limit: limits.maximumQueuedBytes)
        flush(&client)
        return client
    }

    package func pollEvents(of client: GPSDListenerClient, stopping: Bool) -> Int32? {
        client.hasOutput ? Int32(POLLIN) | Int32(POLLOUT) : Int32(POLLIN)
    }

    package func isReady(_ client: GPSDListenerClient) -> Bool { false }

    package func holdsStop(_ client: GPSDListenerClient) -> Bool { false }

    package func idleSince(_ client: GPSDListenerClient) -> Duration? {
        client.policy.watches ? nil : client.lastRequest
    }

    package func step(_ client: inout GPSDListenerClient, id: Int, stopping: Bool, work: inout [Never]) -> String? {
        flush(&client)
        return client.closeReason
    }

    package func perform(_ work: [Never], server: GPSDListener) {}

    package func closingLine(id: Int, reason: String, drops: inout RepeatLimiter<String>, now: Duration) -> (
        level: LogLevel, text: String
    )? {
        (.debug, "gpsd: client \(id) closed\(reason.isEmpty ? "" : ": \(reason)")")
    }

    package func stoppedAccepting() {}

    package func release(_ shared: inout Shared) {}

    /// Writes the client's queue without blocking, as many lines as one gathering write takes at a time (no copy:
    /// the kernel reads the lines the clients share); marks the client closed on a write error.
    package func flush(_ client: inout GPSDListenerClient) {
        guard client.closeReason == nil else { return }
        while client.nextToWrite() {
            let fd = client.fd
            let result = client.withUnwrittenVectors { vectors in
                Result { () throws(Errno) in try System.send(fd, gathering: vectors, waiting: false) }
            }
            switch result {
            case .success(let count):
                client.written += count
                if count == 0 { return }
            case .failure(let error):
                if error.code != EAGAIN, error.code != EWOULDBLOCK { client.closeReason = "connection lost: \(error)" }
                return
            }
        }
    }
}
