import Foundation
import GNSSLocation
import GNSSProtocol
import TestSupport
import Testing

/// The built `singletond` binary as users run it: a child process, its output, its control socket, its signals.
@Suite(.serialized, .hangBound) struct SingletondEndToEndTests {
    func json(_ line: String?) -> JSONValue? { line.flatMap { try? JSONValue(parsing: $0) } }

    /// Starts the demo daemon on a socket in `directory` and waits until it is ready and has written a fix.
    func startDemo(
        in directory: TemporaryDirectory, extra: [String] = [], environment: [String: String] = [:]
    ) async throws -> (SingletondProcess, String) {
        let control = directory.file("c.sock")
        let daemon = try SingletondProcess(["--control", control] + extra, environment: environment)
        let ready = await daemon.stderr.line(containing: "ready:")
        #expect(ready != nil, "no ready line: \(daemon.stderr.history)")
        return (daemon, control)
    }

    @Test func noArgumentsRunsTheDemoAndSIGTERMStopsItCleanly() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let daemon = try SingletondProcess([], environment: ["XDG_RUNTIME_DIR": directory.path])
        defer { daemon.kill() }
        let first = json(await daemon.stdout.nextLine())
        #expect(first?["class"]?.stringValue == "TPV")
        #expect([2, 3].contains(first?["mode"]?.doubleValue), "sent after the first position sentence, as gpsd")
        #expect(abs((first?["lat"]?.doubleValue ?? 0) - 52.358) < 0.01)
        #expect(await daemon.stderr.line(containing: "ready:") != nil)

        let socket = directory.file("singletond.sock")
        var info = stat()
        #expect(lstat(socket, &info) == 0, "the default control socket is under $XDG_RUNTIME_DIR")
        #expect(info.st_mode & 0o777 == 0o600)
        // The next cycle is a second later: the demo replays in real time. (The first cycle's fixes share a time.)
        var second = json(await daemon.stdout.nextLine())
        while second != nil && second?["time"] == first?["time"] { second = json(await daemon.stdout.nextLine()) }
        let times = [first, second].compactMap { $0?["time"]?.stringValue }.compactMap { GNSSTime(iso8601: $0) }
        #expect(times.count == 2 && times[1].millisecondsSince1970 - times[0].millisecondsSince1970 == 1_000)

        // Exit status 0 means the shutdown finished within the daemon's own stop timeout (1.8 s by default); a
        // shutdown that takes longer exits 1.
        daemon.signal(SIGTERM)
        let status = await daemon.exitStatus()
        #expect(status == 0, "\(daemon.stderr.history)")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file is removed on exit")
        let log = await daemon.stderr.rest()
        #expect(log.contains { $0.contains("info: SIGTERM: shutting down") })
        #expect(log.contains { $0.contains("info: stopped") })
    }

    @Test func sigintStopsItToo() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, control) = try await startDemo(in: directory)
        defer { daemon.kill() }
        daemon.signal(SIGINT)
        #expect(await daemon.exitStatus() == 0)
        #expect(!FileManager.default.fileExists(atPath: control))
    }

    @Test func statusWatchSurveyAndCancelThroughTheSocket() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, control) = try await startDemo(in: directory)
        defer { daemon.kill() }
        #expect(await daemon.stdout.nextLine() != nil)

        let status = try await SingletondProcess.run(["status", "--control", control])
        #expect(status.status == 0)
        let report = json(status.stdout.first)
        #expect(report?["class"]?.stringValue == "STATUS")
        #expect(report?["managers"]?["locationManager"]?.stringValue == "live")
        #expect(report?["managers"]?["longTaskManager"]?.stringValue == "live")
        #expect(report?["location"]?["state"]?.stringValue == "fixed")
        #expect(report?["location"]?["fix"]?["class"]?.stringValue == "TPV")
        #expect(report?["task"]?["state"]?.stringValue == "idle")
        #expect(report?["task"]?["isTaskDone"]?.boolValue == false)

        let watcher = try SingletondProcess(["watch", "--control", control])
        defer { watcher.kill() }
        let watched = [await watcher.stdout.nextLine(), await watcher.stdout.nextLine()].map(json)
        #expect(watched.allSatisfy { $0?["class"]?.stringValue == "TPV" })
        watcher.signal(SIGINT)
        _ = await watcher.exitStatus()

        let survey = try await SingletondProcess.run(["survey", "2", "--control", control])
        #expect(survey.status == 0, "\(survey.stderr)")
        let result = json(survey.stdout.first)
        #expect(result?["class"]?.stringValue == "SURVEY")
        #expect(result?["status"]?.stringValue == "completed")
        #expect((result?["used"]?.doubleValue ?? 0) >= 1)
        #expect(abs((result?["lat"]?.doubleValue ?? 0) - 52.358) < 0.01)
        #expect(survey.stderr.contains { $0.hasPrefix("survey: ") && $0.hasSuffix("%") }, "progress is shown")
        #expect(survey.stderr.contains { $0.contains("survey completed") })
        let afterSurvey = json(try await SingletondProcess.run(["status", "--control", control]).stdout.first)
        #expect(afterSurvey?["task"]?["state"]?.stringValue == "finished")
        #expect(afterSurvey?["task"]?["isTaskDone"]?.boolValue == true)
        #expect(afterSurvey?["task"]?["progress"]?.doubleValue == 1)

        let long = try SingletondProcess(["survey", "600", "--control", control])
        defer { long.kill() }
        #expect(await long.stderr.line(containing: "survey: 0%") != nil)
        let running = json(try await SingletondProcess.run(["status", "--control", control]).stdout.first)
        #expect(running?["task"]?["state"]?.stringValue == "running")
        #expect(running?["task"]?["name"]?.stringValue == "survey")
        let cancel = try await SingletondProcess.run(["cancel", "--control", control])
        #expect(cancel.status == 0)
        #expect(json(cancel.stdout.first)?["cancelled"]?.boolValue == true)
        let partial = json(await long.stdout.nextLine())
        #expect(partial?["class"]?.stringValue == "SURVEY")
        #expect(partial?["status"]?.stringValue == "cancelled")
        #expect((partial?["elapsed"]?.doubleValue ?? 600) < 600)
        #expect(await long.exitStatus() == 1, "a cancelled survey is not a success")
        let afterCancel = json(try await SingletondProcess.run(["status", "--control", control]).stdout.first)
        #expect(afterCancel?["task"]?["state"]?.stringValue == "cancelled")
        #expect(afterCancel?["task"]?["isTaskDone"]?.boolValue == false)

        let log = await daemon.stderr.line(containing: "survey cancelled after")
        #expect(log?.contains("notice:") == true, "the partial result is logged")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }

    @Test func badRequestsAFloodOfClientsAndASilentWatcherLeaveItHealthy() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, control) = try await startDemo(in: directory)
        defer { daemon.kill() }

        let client = try #require(StreamClient(path: control))
        client.send("{\"cmd\":\n")
        #expect(json(await client.readLine())?["class"]?.stringValue == "ERROR")
        client.send(String(repeating: "[", count: 100_000) + "\n")
        #expect(await client.readLine()?.contains("request longer than 4096 bytes") == true)
        client.send("{\"cmd\":\"fix\"}\n")
        #expect(json(await client.readLine())?["class"]?.stringValue == "TPV")

        let silent = try #require(StreamClient(path: control))
        silent.send("{\"cmd\":\"watch\"}\n")
        var flood: [StreamClient] = []
        for _ in 0..<200 {
            if let c = StreamClient(path: control) { flood.append(c) }
        }
        #expect(flood.count > 64)
        // The last client came far beyond the limit: it is told so.
        let refusal = await flood.last?.readLine()
        #expect(
            refusal?.contains("too many clients") == true, "clients beyond the limit are told so: \(refusal ?? "nil")")
        for c in flood { c.disconnect() }

        client.send("{\"cmd\":\"status\"}\n")
        #expect(json(await client.readLine())?["class"]?.stringValue == "STATUS")
        let status = try await SingletondProcess.run(["status", "--control", control])
        #expect(status.status == 0)
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }

    @Test func aWrongFlagPrintsTheUsageAndExits64() async throws {
        for arguments in [
            ["--frobnicate"], ["run", "--nmea"], ["--gpsd", "--nmea", "x"], ["survey", "soon"],
            ["--nmea", "x", "--replay-speed", "1e-19"],
        ] {
            let result = try await SingletondProcess.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains { $0.hasPrefix("usage: singletond") }, "\(arguments)")
        }
        let help = try await SingletondProcess.run(["--help"])
        #expect(help.status == 0 && help.stdout.first?.hasPrefix("usage: singletond") == true)
        let version = try await SingletondProcess.run(["--version"])
        #expect(version.status == 0 && version.stdout == ["singletond 0.1.0"])
    }

    @Test func aSourceThatCannotBeOpenedExits1NamingIt() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.file("no-such-track.nmea")
        let result = try await SingletondProcess.run(["--nmea", missing, "--control", directory.file("c.sock")])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains { $0.contains("error: cannot open") && $0.contains(missing) }, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("c.sock")))
    }

    @Test func aSecondDaemonOnTheSameSocketRefusesToStart() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, control) = try await startDemo(in: directory)
        defer { daemon.kill() }
        let second = try await SingletondProcess.run(["--control", control])
        #expect(second.status == 1)
        #expect(second.stderr.contains { $0.contains("another singletond is already listening") })
        #expect(try await SingletondProcess.run(["status", "--control", control]).status == 0)
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }

    @Test func aStaleSocketFromADeadDaemonIsReplaced() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (killed, control) = try await startDemo(in: directory)
        killed.signal(SIGKILL)
        _ = await killed.exitStatus()
        #expect(FileManager.default.fileExists(atPath: control), "SIGKILL leaves the socket file behind")
        let (daemon, _) = try await startDemo(in: directory)
        defer { daemon.kill() }
        #expect(daemon.stderr.history.contains { $0.contains("replaced the stale control socket") })
        #expect(try await SingletondProcess.run(["status", "--control", control]).status == 0)
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }

    @Test func speaksSDNotifyReadyWatchdogStatusAndStopping() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let notify = DatagramSocket(name: directory.file("notify"))
        let (daemon, _) = try await startDemo(
            in: directory, environment: ["NOTIFY_SOCKET": notify.name, "WATCHDOG_USEC": "200000"])
        defer { daemon.kill() }
        let ready = await blocking { notify.receive(containing: "READY=1") }
        #expect(ready?.contains("STATUS=") == true)
        #expect(await blocking { notify.receive(containing: "WATCHDOG=1") } != nil)
        #expect(await blocking { notify.receive(containing: "WATCHDOG=1") } != nil, "the watchdog keeps pinging")
        daemon.signal(SIGTERM)
        #expect(await blocking { notify.receive(containing: "STOPPING=1") } != nil)
        #expect(await daemon.exitStatus() == 0)
    }

    @Test func underTheJournalLogLinesCarryPriorityPrefixes() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let daemon = try SingletondProcess(["--control", directory.file("c.sock")], journal: true)
        defer { daemon.kill() }
        let line = await daemon.stderr.line(containing: "ready:")
        #expect(line?.hasPrefix("<6>singletond") == true, "\(daemon.stderr.history)")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }

    @Test func sighupReopensTheOutputFile() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.file("fixes.json")
        let (daemon, control) = try await startDemo(in: directory, extra: ["--output", output])
        defer { daemon.kill() }
        let watcher = try #require(StreamClient(path: control))
        watcher.send("{\"cmd\":\"watch\"}\n")
        let seen = try #require(await watcher.readLine(containing: "\"TPV\""))
        #expect(rename(output, output + ".1") == 0)
        daemon.signal(SIGHUP)
        #expect(await daemon.stderr.line(containing: "reopened output") != nil)
        // The old file is closed once the log says so: what it holds is final.
        let rotated = try Self.lines(of: output + ".1")
        #expect(rotated.first?.hasPrefix("{\"class\":\"TPV\"") == true)
        // The watcher may still hold lines written before the reopen; the first one the old file lacks came after.
        var after: String?
        for _ in 0..<30 {
            guard let line = await watcher.readLine(containing: "\"TPV\"") else { break }
            if !rotated.contains(line) {
                after = line
                break
            }
        }
        let first = try #require(after, "no TPV line after SIGHUP: \(daemon.stderr.history)")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        let current = try Self.lines(of: output)
        // The watcher gets a line before the output writes it: `seen` may open the new file.
        let start = current.first == seen ? current.dropFirst().first : current.first
        #expect(start == first, "lines after SIGHUP go to the new file, from the first one on")
        #expect(Set(rotated).isDisjoint(with: current), "no line is written twice")
    }

    static func lines(of path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}

extension SingletondEndToEndTests {
    /// Exit status 0 means the shutdown finished within the daemon's own stop timeout.
    @Test func sigtermDuringASurveySendsThePartialResultAndExitsInTime() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, control) = try await startDemo(in: directory)
        defer { daemon.kill() }
        let survey = try SingletondProcess(["survey", "600", "--control", control])
        defer { survey.kill() }
        #expect(await survey.stderr.line(containing: "survey: 0%") != nil)
        daemon.signal(SIGTERM)
        let result = json(await survey.stdout.nextLine())
        #expect(result?["class"]?.stringValue == "SURVEY")
        #expect(result?["status"]?.stringValue == "cancelled")
        #expect(await daemon.exitStatus() == 0, "\(daemon.stderr.history)")
        #expect(await survey.exitStatus() == 1)
    }
}
