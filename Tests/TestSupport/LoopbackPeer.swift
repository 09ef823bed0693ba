import Foundation
import Glibc
import SingletonRegistry
import Testing

/// A TCP listener on 127.0.0.1, the far end of a connection the code under test opens.
///
/// Two ways to use it: ``accept()`` takes a connection on the test's own thread (the kernel completes the handshake
/// before `accept`, so a client's `connect` has returned by then), or ``init(port:serve:)`` runs every connection
/// it accepts through a closure on a thread of its own until ``close()``. The port is bound with `SO_REUSEADDR`,
/// so a peer can be closed and opened again on the same port. Every loop here ends by itself: the accepting thread
/// after ``acceptingLimit``, the helpers for a served connection when the client closes or after their bound.
package final class LoopbackPeer: Sendable {
    /// How long the accepting thread of ``init(port:serve:)`` accepts, at most: a bound that only ends a test's
    /// forgotten peer, never the thing a test waits for.
    package static let acceptingLimit: Duration = .seconds(60)

    /// The port the listener is bound to.
    package let port: UInt16
    /// The listening socket.
    private let listener: Int32
    /// Whether ``close()`` ran; the accepting thread, if any, closes the listener.
    private let state = SanitizerVisibleMutex((stopped: false, serving: false))

    /// Binds 127.0.0.1:`port` (0: the kernel chooses). With `listening: false` the port stays bound but refuses
    /// connections; `backlog` is the accept queue's length (with 0 it fills at once, and connecting then hangs).
    package init(port: UInt16 = 0, listening: Bool = true, backlog: Int32 = 8) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0, "socket: \(String(cString: strerror(errno)))")
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
        let failure = String(cString: strerror(errno))
        if bound != 0 { Glibc.close(fd) }
        try #require(bound == 0, "bind 127.0.0.1:\(port): \(failure)")
        if listening {
            let listened = listen(fd, backlog)
            if listened != 0 { Glibc.close(fd) }
            try #require(listened == 0, "listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        self.port = UInt16(bigEndian: address.sin_port)
    }

    /// Listens on `port` (0: the kernel chooses) and, on a thread of its own, runs each connection it accepts
    /// through `serve` and then closes it, one at a time, until ``close()`` or for at most ``acceptingLimit``.
    package convenience init(port: UInt16 = 0, serve: @escaping @Sendable (Int32) -> Void) throws {
        try self.init(port: port)
        state.withLock { $0.serving = true }
        let (listener, state) = (listener, state)
        Thread {
            let deadline = ContinuousClock.now + Self.acceptingLimit
            while !state.withLock({ $0.stopped }), case let left = deadline - ContinuousClock.now, left > .zero {
                // ``close()`` shuts the listener down, which ends this poll at once.
                var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, Self.milliseconds(left)) == 1, !state.withLock({ $0.stopped }) else { continue }
                let connection = Glibc.accept(listener, nil, nil)
                guard connection >= 0 else { continue }
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                serve(connection)
                Glibc.close(connection)
            }
            Glibc.close(listener)
        }.start()
    }

    /// Stops accepting: the listener is shut down at once (connecting is refused). A serving peer's thread closes
    /// it once the connection it serves, if any, is done. Never blocks the caller, which may be on the cooperative
    /// pool: a test that waited here for a serving thread could starve the code that makes that thread finish.
    package func close() {
        let (first, serving) = state.withLock { state in
            defer { state.stopped = true }
            return (!state.stopped, state.serving)
        }
        guard first else { return }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        if !serving { Glibc.close(listener) }
    }

    deinit { close() }

    /// Accepts the connection a client has already completed; fails the test if none comes within
    /// ``acceptingLimit`` (a client that never connected). The caller closes the descriptor it returns.
    package func accept() throws -> Int32 {
        var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, Self.milliseconds(Self.acceptingLimit))
        try #require(ready == 1, "no client connected to 127.0.0.1:\(port) within \(Self.acceptingLimit)")
        let fd = Glibc.accept(listener, nil, nil)
        try #require(fd >= 0, "accept: \(String(cString: strerror(errno)))")
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// Waits up to `milliseconds` for the client to send something and discards it (a gpsd client's WATCH);
    /// reading it first lets the connection close with FIN rather than RST.
    package static func drain(_ fd: Int32, milliseconds: Int32 = 2_000) {
        var buffer = [UInt8](repeating: 0, count: 1_024)
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, milliseconds) == 1 else { return }
        _ = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
    }

    /// Keeps the connection open until the client closes it (at most `seconds`), sending nothing but what `answer`
    /// returns for a request line the client sent (without its newline).
    package static func serveRequests(_ fd: Int32, seconds: Int = 20, answer: (String) -> String? = { _ in nil }) {
        var pending: [UInt8] = []
        receive(fd, for: .seconds(seconds)) { bytes in
            pending += bytes
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let request = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if let reply = answer(request) { try? writeAll(fd, reply) }
            }
        }
    }

    /// Sends end-of-stream, then waits (at most 5 s) for the client to close its side, so nothing is reset.
    package static func finish(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        receive(fd, for: .seconds(5)) { _ in }
    }

    /// Hands `body` what the client sends until it closes its side or `bound` has passed.
    private static func receive(_ fd: Int32, for bound: Duration, _ body: (ArraySlice<UInt8>) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 1_024)
        let deadline = ContinuousClock.now + bound
        while case let left = deadline - ContinuousClock.now, left > .zero {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, milliseconds(left)) == 1 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
            body(buffer[0..<count])
        }
    }

    /// `duration` as a `poll` timeout: whole milliseconds, rounded up, at least 1.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: max(1, seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }
}
