import Foundation
import SingletonRegistryTesting
import SingletondCore
import TestSupport
import Testing

/// Idle clients (connected, sending nothing or half a line, waiting for nothing) are closed after the idle
/// timeout of the server's clock, so that wedged clients cannot hold every place; watchers are not idle.
///
/// Before the fix, as many silent connections as the client limit locked `singletond status` out for as long as
/// they stayed.
@Suite(.hangBound) struct ControlServerIdleTests {
    private let logger = LogWriter(minimumLevel: .error, journalFormat: false, clock: ContinuousClock())

    private static let handler: ControlServer.Handler = { request, requester in
        if case .watch(let enable) = request {
            requester.setWatching(enable)
            requester.send(Array("{\"class\":\"WATCH\"}\n".utf8))
        } else {
            requester.send(Array("{\"class\":\"STATUS\"}\n".utf8))
        }
    }

    @Test func idleClientsAreClosedAfterTheTimeoutWatchersStay() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("c.sock")
        let clock = TestClock()
        let limits = ClientLimits(maximumClients: 4, idleTimeout: .seconds(60))
        let server = try ControlServer.bind(path: path, limits: limits, logger: logger, clock: clock)
        try server.start(handler: Self.handler)

        let watcher = try #require(StreamClient(path: path))
        watcher.send("{\"cmd\":\"watch\"}\n")
        #expect(await watcher.readLine() == "{\"class\":\"WATCH\"}")
        let asked = try #require(StreamClient(path: path))
        asked.send("{\"cmd\":\"status\"}\n")
        #expect(await asked.readLine() == "{\"class\":\"STATUS\"}")
        let silent = try #require(StreamClient(path: path))
        let halfLine = try #require(StreamClient(path: path))
        halfLine.send("{\"cmd\":\"sta")
        // Every place is taken.
        let refused = try #require(StreamClient(path: path))
        #expect(await refused.readLine()?.contains("too many clients") == true)

        // The half line must have been read before the clock moves: read after it, it would count as activity a
        // minute later and keep its client open. The server announces no read, so its state is asked for.
        let read = try await Polling.firstAnswer(while: { true }) {
            server.clientStates.contains { $0.contains("(11 bytes)") } ? true : nil
        }
        #expect(read == true, "the server read the half line: \(server.clientStates)")
        // The idle timer sleeps on the clock; a minute later the three idle clients are closed.
        await clock.sleepers(atLeast: 1)
        await clock.advance(by: .seconds(60))
        for client in [asked, silent, halfLine] { #expect(await client.readsToEnd(), "\(server.clientStates)") }
        server.broadcast(Array("{\"class\":\"TPV\"}\n".utf8))
        #expect(await watcher.readLine() == "{\"class\":\"TPV\"}", "the watcher stays")
        let next = try #require(StreamClient(path: path))
        next.send("{\"cmd\":\"status\"}\n")
        #expect(await next.readLine() == "{\"class\":\"STATUS\"}")
        await server.stop()
    }
}
