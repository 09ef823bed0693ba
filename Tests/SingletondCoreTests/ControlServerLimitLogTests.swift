import Foundation
import Glibc
import SingletonRegistryTesting
import TestSupport
import Testing

@testable import SingletondCore

/// Clients churning at the client limit (one leaves, the next takes its place, the one after is refused): the first
/// refusal is logged, the next ones counted, and a count goes out a minute later. Before, each turn logged two lines
/// (1,943 lines in 10 s).
@Suite(.hangBound) struct ControlServerLimitLogTests {
    @Test func clientsChurningAtTheLimitAreLoggedOnceThenCounted() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = try CapturedLog(in: directory)
        let clock = TestClock()
        let server = try ControlServer.bind(
            path: directory.file("c.sock"), limits: ClientLimits(maximumClients: 1), logger: log.logger,
            clock: clock)
        try server.start { _, requester in requester.send(Array("{\"class\":\"STATUS\"}\n".utf8)) }

        // Each turn: a client takes the one place (served, so the server counts it), the next is refused, the
        // first leaves and the server has seen it go.
        func churn(_ turns: Int) async throws {
            for _ in 0..<turns {
                let holder = try #require(StreamClient(path: server.path))
                #expect(holder.send("{\"cmd\":\"status\"}\n"))
                #expect(await holder.readLine()?.contains("STATUS") == true)
                let refused = try #require(StreamClient(path: server.path))
                #expect(await refused.readLine()?.contains("too many clients (1)") == true)
                holder.disconnect()
                await server.untilNoClients()
            }
        }
        func limitLines() throws -> [Substring] {
            try log.lines().filter { $0.contains("control:") && $0.contains("client") }
        }

        try await churn(30)
        let first = try limitLines()
        #expect(first.count == 1, "\(first)")
        #expect(first.first?.hasSuffix("control: 1 clients connected; refusing new ones until one leaves") == true)

        await clock.advance(by: .seconds(60))
        try await churn(1)
        let all = try limitLines()
        #expect(all.count == 2, "\(all)")
        #expect(all.last?.hasSuffix("control: refused 30 more clients: too many clients") == true, "\(all)")
        await server.stop()
    }
}
