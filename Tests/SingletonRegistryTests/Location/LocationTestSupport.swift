import Dispatch
import Foundation
import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import Synchronization
import Testing

/// Test helpers for the real-component `LocationManager` tests.
enum LocationTesting {
    /// Fast backoff, so that reconnections happen within a test's attention span.
    static let quickReconnect = ReconnectPolicy(
        initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))

    /// `count` one-second epochs of RMC and GGA with valid checksums, from `firstSecond` seconds after 12:00:00 on
    /// 2026-11-22, moving north-east.
    static func epochs(from firstSecond: Int, count: Int) -> [UInt8] {
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

    /// The fixes the NMEA decoder makes of `bytes`: those emitted while feeding, and all of them (with the end of
    /// the stream's flush).
    static func fixes(of bytes: [UInt8], device: String) -> (whileFeeding: [Fix], all: [Fix]) {
        var decoder = NMEADecoder(device: device)
        var fixes: [Fix] = []
        decoder.feed(bytes) { if case .fix(let fix) = $0 { fixes.append(fix) } }
        let fed = fixes
        decoder.finish { if case .fix(let fix) = $0 { fixes.append(fix) } }
        return (fed, fixes)
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

    /// Writes all bytes to a blocking descriptor.
    static func writeAll(_ fd: Int32, _ bytes: some Collection<UInt8>) throws {
        let bytes = Array(bytes)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            let written =
                n >= 0 || errno != ENOTSOCK
                ? n : bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            try #require(written > 0, "write: \(SourceError.systemMessage(errno))")
            offset += written
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
        guard
            case .reconnecting(_, _, let reason, _)? = await next(where: { $0.name == "reconnecting" })
        else {
            return nil
        }
        return reason
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

/// A TCP listener on 127.0.0.1 that can be closed and opened again on the same port (SO_REUSEADDR), and that
/// runs each connection it accepts through `serve` on a thread of its own, until ``close()``.
final class LoopbackPeer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let stopped = ObservedMutex(false)

    /// Listens on `port` (0: the kernel chooses) and accepts for at most 60 s or until ``close()``.
    init(port: UInt16 = 0, serve: @escaping @Sendable (Int32) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if bound != 0 { Glibc.close(fd) }
        try #require(bound == 0, "bind 127.0.0.1:\(port): \(SourceError.systemMessage(errno))")
        try #require(listen(fd, 8) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        self.port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in
            let deadline = ContinuousClock.now + .seconds(60)
            while !stopped.withLock({ $0 }), ContinuousClock.now < deadline {
                var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 20) == 1 else { continue }
                let connection = accept(listener, nil, nil)
                if connection >= 0 { _ = fcntl(connection, F_SETFD, FD_CLOEXEC) }
                guard connection >= 0 else { continue }
                serve(connection)
                Glibc.close(connection)
            }
            Glibc.close(listener)
        }
        thread.start()
    }

    /// Stops accepting: the listener is shut down at once (connecting is refused) and closed by the accepting thread
    /// once the connection it serves, if any, is done. Never blocks the caller, which may be on the cooperative
    /// pool: a test that waited here for a serving thread could starve the code that makes that thread finish.
    func close() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        _ = shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { close() }

    /// Waits up to `milliseconds` for the client to send something and discards it (a gpsd client's WATCH);
    /// reading it first lets the connection close with FIN rather than RST.
    static func drain(_ fd: Int32, milliseconds: Int32 = 2_000) {
        var buffer = [UInt8](repeating: 0, count: 1_024)
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, milliseconds) == 1 else { return }
        _ = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
    }

    /// Keeps the connection open until the client closes it (at most `seconds`), sending nothing but what `answer`
    /// returns for a request line the client sent (without its newline).
    static func serveRequests(_ fd: Int32, seconds: Int = 20, answer: (String) -> String? = { _ in nil }) {
        var buffer = [UInt8](repeating: 0, count: 1_024)
        var pending: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) == 1 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let request = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if let reply = answer(request) { try? LocationTesting.writeAll(fd, Array(reply.utf8)) }
            }
        }
    }

    /// Sends end-of-stream, then waits (bounded) for the client to close its side, so nothing is reset.
    static func finish(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 1_024)
        for _ in 0..<100 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) == 1 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
        }
    }
}
