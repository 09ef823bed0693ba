import Foundation
import Glibc
import SingletonRegistryTesting
import SystemCalls
import TestSupport
import Testing

@testable import SingletondCore

/// A loop of clients that leave without reading their replies: the first drop is logged, the rest counted, and one
/// summary goes out a minute later, instead of one line per client.
@Suite(.hangBound) struct ControlServerDropLogTests {
    @Test func clientsThatLeaveWithUnreadRepliesAreLoggedOnceThenSummarised() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try CapturedLog(in: directory)
        let clock = TestClock()
        let server = try ControlServer.bind(path: directory.file("c.sock"), logger: log.logger, clock: clock)
        // Replies wait until the test has closed the clients, so that every reply meets a closed connection.
        let gate = ReplyGate()
        try server.start { _, requester in
            await gate.wait()
            requester.send(Array("{\"class\":\"STATUS\"}\n".utf8))
        }

        var requests = 0
        func leaveWithoutReading(_ count: Int) async throws {
            for _ in 0..<count {
                let fd = try UnixSocket.connect(to: server.path).get()
                #expect((try? System.writeAll(fd, Array("{\"cmd\":\"status\"}\n".utf8), socket: true)) != nil)
                close(fd)
            }
            requests += count
            await gate.untilArrived(requests)
            await gate.set(open: true)
            await server.untilNoClients()
            await gate.set(open: false)
        }

        try await leaveWithoutReading(30)
        let first = try log.lines().filter { $0.contains("control: dropped") }
        #expect(first.count == 1, "\(first)")
        #expect(first.first?.contains("control: dropped client") == true)

        await clock.advance(by: .seconds(60))
        try await leaveWithoutReading(1)
        let all = try log.lines().filter { $0.contains("control: dropped") }
        #expect(all.count == 2, "\(all)")
        #expect(all.last?.contains("control: dropped 30 more clients: connection lost") == true, "\(all)")
        await server.stop()
    }

    /// Holds replies back while closed, and counts the requests that reached it.
    actor ReplyGate {
        private(set) var arrived = 0
        private var isOpen = false
        private var waiters: [CheckedContinuation<Void, Never>] = []

        private var arrivalWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        func wait() async {
            arrived += 1
            for watcher in arrivalWatchers where watcher.count <= arrived { watcher.continuation.resume() }
            arrivalWatchers.removeAll { $0.count <= arrived }
            guard !isOpen else { return }
            await withCheckedContinuation { waiters.append($0) }
        }

        /// Returns once `count` requests have reached the gate.
        func untilArrived(_ count: Int) async {
            guard arrived < count else { return }
            await withCheckedContinuation { arrivalWatchers.append((count, $0)) }
        }

        func set(open: Bool) {
            isOpen = open
            guard open else { return }
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }
}
