import Dispatch
import Foundation
import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import TestSupport
import Testing

/// Test helpers for the real-component `LocationManager` tests.
enum LocationTesting {
    /// Fast backoff, so that reconnections happen within a test's attention span.
    static let quickReconnect = ReconnectPolicy(
        initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))

    /// `count` one-second cycles of RMC and GGA with valid checksums, from `firstSecond` seconds after 12:00:00 on
    /// 2026-11-22, moving north-east.
    static func cycles(from firstSecond: Int, count: Int) -> [UInt8] {
        var out = ""
        for second in firstSecond..<(firstSecond + count) {
            let time = String(
                format: "%02d%02d%02d.00", 12 + second / 3_600, second / 60 % 60, second % 60)
            let lat = String(format: "4807.%03d", second % 1_000)
            let lon = String(format: "01131.%03d", (2 * second) % 1_000)
            out += sentence("GPRMC,\(time),A,\(lat),N,\(lon),E,000.5,054.7,221126,,,A")
            out += sentence("GPGGA,\(time),\(lat),N,\(lon),E,1,08,0.9,545.4,M,46.9,M,,")
        }
        return Array(out.utf8)
    }

    /// `$body*HH` CR LF.
    static func sentence(_ body: String) -> String {
        NMEAChecksum.sentence(body)
    }

    /// The fixes a live source's NMEA decoder makes of `passes`, the bytes of successive connections, with one
    /// decoder for them all as the session keeps it across reconnects: per pass, those emitted while feeding, and all
    /// of them (with the flush at the pass's end).
    static func fixes(ofPasses passes: [[UInt8]], device: String) -> [(whileFeeding: [Fix], all: [Fix])] {
        var decoder = NMEADecoder(liveDevice: device)
        return passes.map { bytes in
            var fixes: [Fix] = []
            decoder.feed(bytes) { if case .fix(let fix) = $0 { fixes.append(fix) } }
            let fed = fixes
            decoder.finish { if case .fix(let fix) = $0 { fixes.append(fix) } }
            return (fed, fixes)
        }
    }

    /// Writes `bytes` to a blocking descriptor at roughly `baud` bits per second (10 bits per byte, 8N1), in
    /// 20 ms slices: the pacing of a serial receiver.
    static func writePaced(_ fd: Int32, _ bytes: [UInt8], baud: Int) async throws {
        let perSlice = max(1, baud / 10 / 50)
        var offset = 0
        let start = ContinuousClock.now
        var slice = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + perSlice)
            try writeAll(fd, bytes[offset..<end])
            offset = end
            slice += 1
            try await Task.sleep(until: start + .milliseconds(20 * slice), clock: .continuous)
        }
    }
}

/// Reads a manager's state changes in order.
@RegistryActor
struct StateWatch {
    private let changes: AsyncStream<LocationState>
    /// Every state seen so far.
    private(set) var seen: [LocationState] = []

    init(_ manager: LocationManager) {
        changes = manager.stateChanges()
    }

    /// Waits for the next state that satisfies `predicate` and returns it (nil if the stream ended).
    @discardableResult
    mutating func next(where predicate: (LocationState) -> Bool) async -> LocationState? {
        // An AsyncStream's iterators share its buffer: a fresh one continues where the last one stopped.
        var iterator = changes.makeAsyncIterator()
        while let state = await iterator.next(isolation: #isolation) {
            seen.append(state)
            if predicate(state) { return state }
        }
        return nil
    }

    /// Waits for the next `.reconnecting` state and returns its reason.
    mutating func nextReconnectReason() async -> String? {
        await nextReconnect()?.reason
    }

    /// Waits for the next `.reconnecting` state and returns its attempt, reason and wait.
    mutating func nextReconnect() async -> (attempt: Int, reason: String, retryIn: Duration)? {
        guard
            case .reconnecting(_, let attempt, let reason, let retryIn)? = await next(where: {
                $0.name == "reconnecting"
            })
        else {
            return nil
        }
        return (attempt, reason, retryIn)
    }
}

/// Reads a subscriber's fixes.
@RegistryActor
struct FixReader {
    private let updates: LocationUpdates
    /// Every fix read so far.
    private(set) var fixes: [Fix] = []
    /// The drops reported so far.
    private(set) var dropped = 0

    init(_ updates: LocationUpdates) {
        self.updates = updates
    }

    /// Reads `count` more fixes (fewer if the stream ends) and returns them.
    @discardableResult
    mutating func read(_ count: Int) async -> [Fix] {
        var out: [Fix] = []
        // The iterator holds no state of its own: a fresh one continues the same subscription.
        var iterator = updates.makeAsyncIterator()
        while out.count < count, let update = await iterator.next() {
            dropped += update.droppedBefore
            out.append(update.fix)
        }
        fixes += out
        return out
    }
}

extension LocationManager {
    /// This manager with no staleness and no silence watch, for a test on the live clock about something else: a
    /// loaded machine's pauses (seconds, under the thread sanitizer) then decide nothing. Tests of those timeouts run
    /// on `TestClock`.
    func withoutLiveTimeouts() -> Self {
        staleAfter = .seconds(86_400)
        silenceTimeout = nil
        return self
    }
}
