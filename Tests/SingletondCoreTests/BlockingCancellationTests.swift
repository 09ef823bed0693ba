import Foundation
import TestSupport
import Testing

/// A test cancelled by its time limit ends at once: the waits on threads of their own that tests use (a line from
/// a child, a line from a socket) end when their task is cancelled, not when their hang bound runs out.
@Suite(.hangBound) struct BlockingCancellationTests {
    @Test func aCancelledWaitForAChildsLineEndsBeforeItsBound() async throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[1]) }
        let reader = LineReader(fd: fds[0])
        let started = Started()
        // Nothing is ever written: only cancellation ends the wait before its 10-minute bound.
        let wait = Task {
            await started.mark()
            return await reader.nextLine(timeout: 600)
        }
        await started.wait()
        wait.cancel()
        #expect(await wait.value == nil)
    }

    @Test func aCancelledWaitForASocketsLineEndsBeforeItsBound() async throws {
        let path = TemporaryDirectory()
        defer { path.remove() }
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.file("s.sock").utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && listen(listener, 1) == 0)
        let client = try #require(StreamClient(path: path.file("s.sock")))
        let started = Started()
        let wait = Task {
            await started.mark()
            return await client.readLine(timeout: 600)
        }
        await started.wait()
        wait.cancel()
        #expect(await wait.value == nil)
    }

    /// Says when a task has begun.
    actor Started {
        private var begun = false
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func mark() {
            begun = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }

        func wait() async {
            guard !begun else { return }
            await withCheckedContinuation { waiters.append($0) }
        }
    }
}
