import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

@testable import SingletondCore

/// A loop of survey and cancel pairs: the first cancel is logged, the rest counted, and one summary goes out a minute
/// later, instead of one line per cancel.
@Suite(.hangBound) struct ControlCancelLogTests {
    @Test
    func cancelsAreLoggedOnceThenSummarised() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let logClock = TestClock()
        let log = try CapturedLog(in: directory, clock: logClock)
        let server = try ControlServer.bind(path: directory.file("c.sock"), logger: log.logger, clock: TestClock())
        let responder = ControlResponder(device: "test", defaultSurveySeconds: 60, logger: log.logger, server: server)
        try server.start { request, requester in await responder.respond(to: request, from: requester) }

        /// Starts a survey, cancels it from a second client once it runs, and waits for both replies; the cancel is
        /// logged before its reply is sent.
        func surveyThenCancel() async throws {
            let surveyor = try #require(StreamClient(path: server.path))
            #expect(surveyor.send("{\"cmd\":\"survey\"}\n"))
            #expect(await surveyor.readLine(containing: "PROGRESS") != nil)
            let canceller = try #require(StreamClient(path: server.path))
            #expect(canceller.send("{\"cmd\":\"cancel\"}\n"))
            #expect(await canceller.readLine(containing: "\"cancelled\":true") != nil)
            #expect(await surveyor.readLine(containing: "\"status\":\"cancelled\"") != nil)
        }
        func cancelLines() throws -> [Substring] {
            try log.lines().filter { $0.contains("control:") && $0.contains("cancelled") }
        }

        for _ in 0..<5 { try await surveyThenCancel() }
        let first = try cancelLines()
        #expect(first.count == 1, "\(first)")
        #expect(first.first?.contains("cancelled running survey") == true, "\(first)")

        await logClock.advance(by: .seconds(60))
        try await surveyThenCancel()
        let all = try cancelLines()
        #expect(all.count == 2, "\(all)")
        #expect(all.last?.contains("control: 5 more clients cancelled a running job") == true, "\(all)")
        await server.stop()
    }
}
