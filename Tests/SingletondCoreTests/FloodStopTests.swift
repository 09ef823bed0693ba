import Foundation
import GNSSProtocol
import Glibc
import SingletonRegistry
import TestSupport
import Testing

/// A daemon whose source floods it still answers and stops: the signal handler's thread logs the signal and sends
/// `STOPPING=1` itself, and the session's decoding yields its thread of the cooperative pool every few chunks.
/// Before, with the pool's threads held by the decoding (two on a 2-core machine), SIGTERM was never logged, the
/// backstop exited 1 and the control socket's file stayed behind, and `status` went unanswered for seconds.
///
/// Five watchers on the control socket read every fix. The daemon runs on processor 0 only (`taskset -c 0`): libdispatch sizes the pool by the processors the process
/// may use, so the pool has one thread there, busy with the flood, on any machine. Nothing is decided on a duration:
/// the status must be answered and the stop must end the daemon before bounds that only catch a hang.
@Suite(.hangBound) struct FloodStopTests {
    /// The bytes a flooding peer sent: a signal once they pass `mark`, or once the peer stops before that.
    final class SentBytes: Sendable {
        private let total = SanitizerVisibleMutex(0)
        private let mark: Int
        /// Ends once `mark` bytes were sent, or the peer stopped sending.
        let (passedMark, passedMarkSignal) = AsyncStream.makeStream(of: Void.self)

        init(mark: Int) { self.mark = mark }

        /// Whether `mark` bytes were sent.
        var reachedMark: Bool { total.withLock { $0 >= mark } }

        func add(_ count: Int) {
            let crossed = total.withLock { total in
                defer { total += count }
                return total < mark && total + count >= mark
            }
            if crossed { passedMarkSignal.finish() }
        }
    }

    /// A peer that sends cycles as fast as the daemon reads them, for at most `bound`, and counts the bytes sent.
    static func floodingPeer(sent: SentBytes, bound: Duration = .seconds(120)) throws -> LoopbackPeer {
        let cycles = Array(SingletondEndToEndTests.manyCycles(3_600).utf8)
        return try LoopbackPeer { connection in
            defer { sent.passedMarkSignal.finish() }
            let deadline = ContinuousClock.now + bound
            var offset = 0
            while ContinuousClock.now < deadline {
                let count = cycles[offset...].withUnsafeBytes {
                    send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return }
                sent.add(count)
                offset = (offset + count) % cycles.count
            }
        }
    }

    /// Reads and forgets what `fd` receives, on a thread of its own, until it is closed or for two minutes at most.
    static func drain(_ fd: Int32) {
        Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 100) >= 0 else { return }
                guard pfd.revents != 0 else { continue }
                if buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) == 0 {
                    return
                }
            }
        }.start()
    }

    @Test func statusIsAnsweredAndSIGTERMStopsTheDaemonDuringAFlood() async throws {
        // The flood is under way once the daemon has taken far more than the sockets' buffers hold.
        let sent = SentBytes(mark: 16 << 20)
        let peer = try Self.floodingPeer(sent: sent)
        defer { peer.close() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("c.sock")
        let daemon = try SingletondProcess(
            [
                "--nmea-tcp", "127.0.0.1:\(peer.port)", "--control", path, "--output", "/dev/null", "--stop-timeout",
                "60",
            ],
            cpus: "0")
        defer { daemon.kill() }
        try #require(await daemon.stderr.line(containing: " ready: ", timeout: 60) != nil, "\(daemon.stderr.history)")
        // Watchers that read everything keep the pool's work coming: a fix for each, handed over on the pool.
        let watchers = try (0..<5).map { _ in try #require(StreamClient(path: path)) }
        defer { for watcher in watchers { watcher.disconnect() } }
        for watcher in watchers {
            watcher.send("{\"cmd\":\"watch\"}\n")
            Self.drain(watcher.fd)
        }
        for await _ in sent.passedMark {}
        try #require(sent.reachedMark, "the peer stopped before the flood got under way: \(daemon.stderr.history)")

        let client = try #require(StreamClient(path: path))
        client.send("{\"cmd\":\"status\"}\n")
        let status = await client.readLine(timeout: 60)
        #expect(
            status?.hasPrefix("{\"class\":\"STATUS\"") == true,
            "no status during the flood: \(String(describing: status))")
        client.disconnect()

        daemon.signal(SIGTERM)
        let signalled = await daemon.stderr.line(containing: "SIGTERM: shutting down", timeout: 60)
        #expect(signalled != nil, "\(daemon.stderr.history)")
        let exit = await daemon.exitStatus()
        #expect(exit == 0, "\(daemon.stderr.history)")
        #expect(!FileManager.default.fileExists(atPath: path), "the control socket's file was left behind")
    }
}
