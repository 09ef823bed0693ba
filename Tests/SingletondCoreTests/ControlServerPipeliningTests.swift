import Foundation
import SingletonRegistryTesting
import SingletondCore
import TestSupport
import Testing

/// Clients that send their requests faster than they read the replies: every request is answered, however the
/// server's flushes and its serving of waiting lines fall.
///
/// Before the fix, the server stopped serving a client once half its reply queue was full, then flushed the queue
/// into the kernel on the spot: the client was left idle with complete lines waiting, polled for nothing, and
/// served only when another client woke the server.
@Suite(.hangBound) struct ControlServerPipeliningTests {
    private let logger = LogWriter(minimumLevel: .error, journalFormat: false, clock: ContinuousClock())

    /// Answers every request with a fixed `STATUS` line, from the handler's task (off the poll thread).
    private static let handler: ControlServer.Handler = { _, requester in
        requester.send(Array("{\"class\":\"STATUS\"}\n".utf8))
    }

    private func withServer(
        limits: ClientLimits, _ body: (ControlServer, String) async throws -> Void
    ) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("c.sock")
        let server = try ControlServer.bind(path: path, limits: limits, logger: logger, clock: TestClock())
        try server.start(handler: Self.handler)
        try await body(server, path)
        await server.stop()
    }

    /// `(yes garbage | head -n 2000) | socat - UNIX-CONNECT:SOCK`: two thousand invalid lines sent before any
    /// reply is read get two thousand `ERROR` replies (the server answered 331 and then held the client forever,
    /// its 32 KiB of replies flushed and its other lines waiting).
    @Test func everyLineOfAClientThatSendsBeforeReadingGetsItsError() async throws {
        try await withServer(limits: ClientLimits()) { server, path in
            let client = try #require(StreamClient(path: path))
            let lines = Array(String(repeating: "garbage\n", count: 2_000).utf8)
            #expect(await blocking { client.send(bytes: lines) })
            var errors = 0
            while errors < 2_000, await client.readLine()?.contains("\"class\":\"ERROR\"") == true { errors += 1 }
            #expect(errors == 2_000, "the server holds: \(server.clientStates)")
        }
    }

    /// Runs of invalid lines that fill half the reply queue, each followed by a `status` request answered from
    /// the handler's task: every reply comes, in the order of the requests.
    @Test func runsOfErrorsBetweenStatusRequestsAreAllAnswered() async throws {
        try await withServer(limits: ClientLimits(maximumQueuedBytes: 4_096)) { server, path in
            let client = try #require(StreamClient(path: path))
            let run = String(repeating: "garbage\n", count: 40) + "{\"cmd\":\"status\"}\n"
            let requests = Array(String(repeating: run, count: 50).utf8)
            async let written = blocking { client.send(bytes: requests) }
            var replies: [String] = []
            while replies.count < 50 * 41, let line = await client.readLine() { replies.append(line) }
            #expect(await written)
            #expect(replies.count == 50 * 41, "the server holds: \(server.clientStates)")
            let expected = (Array(repeating: "ERROR", count: 40) + ["STATUS"]).map { "\"class\":\"\($0)\"" }
            for (index, reply) in replies.enumerated() where !reply.contains(expected[index % 41]) {
                Issue.record("reply \(index) is \(reply)")
                break
            }
        }
    }
}
