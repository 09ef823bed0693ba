import Foundation
import GNSSProtocol
import SingletonRegistryTesting
import SingletondCore
import TestSupport
import Testing

/// The control socket in-process, with a scripted handler: limits, bad input, watchers, socket file handling.
@Suite(.hangBound) struct ControlServerTests {
    private let logger = LogWriter(minimumLevel: .error, journalFormat: false, clock: ContinuousClock())

    /// A handler that answers `status` with a fixed line and makes `watch` clients watchers.
    private static let handler: ControlServer.Handler = { request, requester in
        switch request {
        case .watch(let enable):
            requester.setWatching(enable)
            requester.send(Array("{\"class\":\"WATCH\"}\n".utf8))
        default:
            requester.send(Array("{\"class\":\"STATUS\"}\n".utf8))
        }
    }

    private func withServer(
        limits: ClientLimits = ClientLimits(), _ body: (ControlServer, String) async throws -> Void
    ) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("c.sock")
        let server = try ControlServer.bind(path: path, limits: limits, logger: logger, clock: TestClock())
        try server.start(handler: Self.handler)
        try await body(server, path)
        await server.stop()
        #expect(!FileManager.default.fileExists(atPath: path), "the socket file is removed on stop")
    }

    @Test func socketIsPrivateToItsUser() async throws {
        try await withServer { _, path in
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600)
            #expect(info.st_mode & S_IFMT == S_IFSOCK)
        }
    }

    @Test func badRequestsGetAnErrorAndTheConnectionStaysUsable() async throws {
        try await withServer { _, path in
            let client = try #require(StreamClient(path: path))
            client.send("hello\n{\"cmd\":\"launch\"}\n\n{\"cmd\":\"status\"}\r\n")
            #expect(await client.readLine()?.contains("\"class\":\"ERROR\"") == true)
            #expect(await client.readLine()?.contains("unknown command \\\"launch\\\"") == true)
            #expect(await client.readLine() == "{\"class\":\"STATUS\"}")
        }
    }

    @Test func anOverlongRequestIsRefusedAndSkipped() async throws {
        try await withServer(limits: ClientLimits(maximumLineBytes: 64)) { _, path in
            let client = try #require(StreamClient(path: path))
            client.send(String(repeating: "x", count: 10_000))
            #expect(await client.readLine()?.contains("request longer than 64 bytes") == true)
            client.send(String(repeating: "y", count: 500) + "\n{\"cmd\":\"status\"}\n")
            #expect(await client.readLine() == "{\"class\":\"STATUS\"}")
        }
    }

    @Test func clientsBeyondTheLimitAreToldAndClosed() async throws {
        try await withServer(limits: ClientLimits(maximumClients: 4)) { server, path in
            var clients: [StreamClient] = []
            for _ in 0..<4 {
                let client = try #require(StreamClient(path: path))
                client.send("{\"cmd\":\"status\"}\n")
                #expect(await client.readLine() != nil)
                clients.append(client)
            }
            let refused = try #require(StreamClient(path: path))
            #expect(await refused.readLine()?.contains("too many clients") == true)
            #expect(await refused.readsToEnd())
            // When the others leave, a new client is served again. The last one's answer proves the server saw the
            // others hang up: they closed before it asked, and one poll reports all of that together.
            let last = clients.removeLast()
            for client in clients { client.disconnect() }
            last.send("{\"cmd\":\"status\"}\n")
            #expect(await last.readLine() == "{\"class\":\"STATUS\"}")
            let next = try #require(StreamClient(path: path))
            next.send("{\"cmd\":\"status\"}\n")
            #expect(await next.readLine() == "{\"class\":\"STATUS\"}")
            _ = server
        }
    }

    /// A client that sends 10,000-byte lines and never reads: each line's `ERROR` goes through the reply queue's
    /// limit, and once its replies back up the server reads no more of its input until it reads them, so its writes
    /// stop and the server holds at most the limit for it. Before, each ERROR was queued past the limit and the
    /// client read on for ever: 7 GB in 15 s took the daemon from 13 to 55 MB.
    @Test func aClientSendingOverlongLinesWithoutReadingIsNotReadWhileItsRepliesBackUp() async throws {
        let limits = ClientLimits()
        try await withServer(limits: limits) { server, path in
            let client = try #require(StreamClient(path: path))
            let lines = Array(repeating: [UInt8](repeating: UInt8(ascii: "x"), count: 9_999) + [0x0A], count: 10)
                .flatMap { $0 }
            // Sends without waiting until the kernel takes no more while the server says it does not read the
            // client; 5,000 lines (50 MB) are a bound the server that reads on passes.
            let (paused, sent) = await blocking { () -> (Bool, Int) in
                var sent = 0
                while sent < 5_000 * 10_000 {
                    let offset = sent % lines.count
                    let count = lines[offset...].withUnsafeBytes {
                        Foundation.send(client.fd, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                    }
                    if count > 0 {
                        sent += count
                        continue
                    }
                    guard count < 0, errno == EAGAIN else { return (false, sent) }
                    if server.clientQueues.first?.isRead == false { return (true, sent) }
                    // The server reads on, or is about to stop, which nothing announces: wait for room in slices
                    // of 10 ms, and look at the server again after each.
                    var descriptors = [pollfd(fd: client.fd, events: Int16(POLLOUT), revents: 0)]
                    guard blockingPoll(&descriptors, timeout: 0.01) >= 0, !blockingWasCancelled else {
                        return (false, sent)
                    }
                }
                return (false, sent)
            }
            let queues = server.clientQueues
            #expect(paused, "the server read \(sent) bytes of over-long lines on: \(server.clientStates)")
            #expect(queues.count == 1, "the client is not dropped")
            #expect(
                queues.allSatisfy { $0.queuedBytes <= limits.maximumQueuedBytes }, "\(server.clientStates)")
            // The client reads its replies: every one is the over-long line's error, and the server reads it again.
            let reading = await blocking { () -> Bool in
                while server.clientQueues.first?.isRead == false {
                    guard let line = client.readLineNow(timeout: 60), line.contains("request longer than 4096 bytes")
                    else { return false }
                }
                return true
            }
            #expect(reading, "\(server.clientStates)")
        }
    }

    @Test func aWatcherThatDoesNotReadIsDroppedOthersKeepGettingLines() async throws {
        try await withServer(limits: ClientLimits(maximumQueuedBytes: 16_384)) { server, path in
            let sleeper = try #require(StreamClient(path: path))
            sleeper.send("{\"cmd\":\"watch\"}\n")
            #expect(await sleeper.readLine() == "{\"class\":\"WATCH\"}")
            let reader = try #require(StreamClient(path: path))
            reader.send("{\"cmd\":\"watch\"}\n")
            #expect(await reader.readLine() == "{\"class\":\"WATCH\"}")
            var fix = Fix(mode: .threeD, latitude: 52, longitude: 5)
            fix.device = String(repeating: "d", count: 200)
            var line: [UInt8] = []
            GPSDJSONWriter.appendTPV(fix, to: &line)
            // The sleeper's socket buffer and its queue fill up; the reader keeps reading.
            for _ in 0..<20_000 {
                server.broadcast(line)
                #expect(await reader.readLine() != nil)
                if server.watcherCount == 1 { break }
            }
            #expect(server.watcherCount == 1)
            #expect(await sleeper.readsToEnd(), "the dropped watcher's connection is closed")
            let status = try #require(StreamClient(path: path))
            status.send("{\"cmd\":\"status\"}\n")
            #expect(await status.readLine() == "{\"class\":\"STATUS\"}")
        }
    }

    /// A client that pipelines ten thousand requests and reads the replies as it can is slowed, not dropped: the
    /// server serves no new request while a client's replies back up, so its queue never overflows (such a client
    /// was dropped as "client does not read its replies" after about a thousand).
    @Test func aPipeliningClientThatReadsLateGetsEveryReply() async throws {
        try await withServer(limits: ClientLimits(maximumQueuedBytes: 4_096)) { server, path in
            let client = try #require(StreamClient(path: path))
            let requests = Array(String(repeating: "{\"cmd\":\"status\"}\n", count: 10_000).utf8)
            // The requests go out from a thread of their own, as fast as the socket takes them, while this task
            // reads: the writes block whenever the server holds back, and only reading lets them go on.
            async let written = blocking { client.send(bytes: requests) }
            var replies = 0
            while replies < 10_000, await client.readLine() == "{\"class\":\"STATUS\"}" { replies += 1 }
            #expect(await written)
            #expect(replies == 10_000, "the server holds: \(server.clientStates)")
            #expect(server.clientCount == 1, "not dropped")
        }
    }

    @Test func aClientThatHangsUpRightAfterItsRequestStillHasItServed() async throws {
        let served = AsyncStream<ControlRequest>.makeStream()
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("c.sock")
        let server = try ControlServer.bind(path: path, logger: logger, clock: TestClock())
        try server.start { request, _ in served.continuation.yield(request) }
        do {
            let client = try #require(StreamClient(path: path))
            client.send("{\"cmd\":\"cancel\"}\n")
        }
        var iterator = served.stream.makeAsyncIterator()
        #expect(await iterator.next() == .cancel)
        await server.stop()
    }

    @Test func aStaleSocketIsReplacedALiveOneIsNot() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("c.sock")
        // A socket file nobody listens on: what a killed daemon leaves.
        let stale = try ControlServer.bind(path: path, logger: logger, clock: TestClock())
        await stale.stop()
        let dead = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(dead, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(dead)
        #expect(FileManager.default.fileExists(atPath: path))

        let live = try ControlServer.bind(path: path, logger: logger, clock: TestClock())
        try live.start(handler: Self.handler)
        #expect(throws: ControlServerError.self) {
            try ControlServer.bind(path: path, logger: logger, clock: TestClock())
        }
        do {
            _ = try ControlServer.bind(path: path, logger: logger, clock: TestClock())
        } catch {
            #expect(error.reason.contains("another singletond is already listening"))
        }
        // The refused second daemon left the live socket alone.
        let client = try #require(StreamClient(path: path))
        client.send("{\"cmd\":\"status\"}\n")
        #expect(await client.readLine() == "{\"class\":\"STATUS\"}")
        await live.stop()
    }

    @Test func aPathThatIsNotASocketIsLeftAlone() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("notes.txt")
        _ = FileManager.default.createFile(atPath: path, contents: Data("keep me".utf8))
        #expect(throws: ControlServerError.self) {
            try ControlServer.bind(path: path, logger: logger, clock: TestClock())
        }
        #expect(FileManager.default.contents(atPath: path) == Data("keep me".utf8))
    }
}
