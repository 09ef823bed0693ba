import Foundation
import TestSupport
import Testing

/// Surveys that nobody awaits any more, and surveys of other parameters asked for while one runs.
extension SingletondEndToEndTests {
    @Test func aSurveyWhoseLastClientIsGoneIsCancelled() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, control) = try await startDemo(in: directory)
        defer { daemon.kill() }
        let first = try SingletondProcess(["survey", "600", "--control", control])
        defer { first.kill() }
        #expect(await first.stderr.line(containing: "survey: 0%") != nil)
        let joined = try SingletondProcess(["survey", "600", "--control", control])
        defer { joined.kill() }
        #expect(await joined.stderr.line(containing: "survey: ") != nil, "the same survey is joined")

        first.signal(SIGKILL)
        _ = await first.exitStatus()
        let stillRunning = json(try await SingletondProcess.run(["status", "--control", control]).stdout.first)
        #expect(stillRunning?["task"]?["state"]?.stringValue == "running", "one client still awaits the survey")

        joined.signal(SIGKILL)
        _ = await joined.exitStatus()
        // The daemon logs the partial result when the survey ends: the event that proves it was cancelled.
        let log = await daemon.stderr.line(containing: "survey cancelled after")
        #expect(log != nil, "a survey nobody awaits is cancelled: \(daemon.stderr.history)")
        // The job logs its result before it returns; the manager's state changes after, and its line says so.
        let state = await daemon.stderr.line(containing: "task: cancelled")
        #expect(state != nil, "the manager's state is cancelled: \(daemon.stderr.history)")
        let after = json(try await SingletondProcess.run(["status", "--control", control]).stdout.first)
        #expect(after?["task"]?["state"]?.stringValue == "cancelled")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }

    /// A client that loops on survey requests while another survey runs gets each refused, and the log gets one
    /// line for the requests and one for the refusals, then counts (it got two lines a request).
    @Test func refusedSurveyRequestsDoNotFloodTheLog() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, control) = try await startDemo(in: directory)
        defer { daemon.kill() }
        let long = try SingletondProcess(["survey", "600", "--control", control])
        defer { long.kill() }
        #expect(await long.stderr.line(containing: "survey: 0%") != nil)
        let client = try #require(StreamClient(path: control))
        for _ in 0..<200 {
            client.send("{\"cmd\":\"survey\",\"seconds\":3}\n")
            #expect(await client.readLine()?.contains("\"class\":\"ERROR\"") == true)
        }
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        _ = await daemon.stderr.rest()
        let log = daemon.stderr.history
        #expect(log.count { $0.contains("asks for a survey") } == 1, "\(log.suffix(10))")
        #expect(log.count { $0.contains("refused: a survey of other parameters runs") } == 1)
    }

    /// A client that asks for one tiny survey after another (`survey 1e-9` in a loop) gets every result, and the
    /// log gets one line per kind (the request, the task's states, the result), then counts (it got five lines a
    /// survey).
    @Test func repeatedTinySurveysDoNotFloodTheLog() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, control) = try await startDemo(in: directory)
        defer { daemon.kill() }
        let client = try #require(StreamClient(path: control))
        for _ in 0..<100 {
            #expect(client.send("{\"cmd\":\"survey\",\"seconds\":1e-9}\n"))
            #expect(await client.readLine(containing: "\"class\":\"SURVEY\"") != nil)
        }
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        _ = await daemon.stderr.rest()
        let log = daemon.stderr.history
        // At most two of each: a run that crosses a minute logs one count.
        for kind in ["asks for a survey", "task: running survey", "task: finished survey", "survey of 0 s completed"] {
            #expect(log.count { $0.contains(kind) } <= 2, "\(kind): \(log.suffix(12))")
        }
        #expect(log.count <= 30, "\(log.suffix(12))")
    }

    @Test func aSurveyOfAnotherLengthIsRefusedNamingTheOneThatRuns() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, control) = try await startDemo(in: directory)
        defer { daemon.kill() }
        let long = try SingletondProcess(["survey", "600", "--control", control])
        defer { long.kill() }
        #expect(await long.stderr.line(containing: "survey: 0%") != nil)

        let short = try await SingletondProcess.run(["survey", "3", "--control", control])
        #expect(short.status != 0)
        #expect(short.stdout.isEmpty, "no SURVEY result: \(short.stdout)")
        #expect(!short.stderr.contains { $0.hasPrefix("survey: ") }, "no progress of the other survey")
        let refusal = short.stderr.joined(separator: "\n")
        #expect(refusal.contains("a survey of 600 s is running, about "), "\(refusal)")
        #expect(refusal.contains(" s left: ask for the same survey to join it, or cancel it first"), "\(refusal)")

        let running = json(try await SingletondProcess.run(["status", "--control", control]).stdout.first)
        #expect(running?["task"]?["state"]?.stringValue == "running", "the refusal leaves the running survey alone")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }
}
