import Foundation
import GNSSProtocol
import SingletondCore
import TestSupport
import Testing

/// The built `singletond`'s gpsd listener under hostile clients, one after the other on one daemon, while a
/// well-behaved control client asks for the status every 10 ms: NUL bytes, a 10 MB line, `?WATCH` toggled a
/// thousand times, a watcher that never reads while fixes stream in, and a thousand connections at once. Memory
/// stays bounded and the control socket answers throughout.
@Suite(.serialized, .hangBound) struct GPSDListenerFaultTests {
    static func json(_ line: String?) -> JSONValue? {
        guard var line else { return nil }
        if line.hasSuffix("\r") { line.removeLast() }
        return try? JSONValue(parsing: line)
    }

    /// The daemon's STATUS `gpsd` object, asked on a connection of its own.
    static func listenerStatus(control: String) async -> JSONValue? {
        guard let client = StreamClient(path: control) else { return nil }
        client.send("{\"cmd\":\"status\"}\n")
        return json(await client.readLine())?["gpsd"]
    }

    @Test func theListenerHoldsAgainstHostileClients() async throws {
        let floodSize = 1_000
        guard SingletondFaultTests.raiseOpenFileLimit(to: floodSize + 512) else {
            Issue.record("cannot open \(floodSize) connections: the hard RLIMIT_NOFILE is too low (ulimit -Hn)")
            return
        }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let source = try HeldFIFO(directory.file("nmea"))
        defer { source.close() }
        let control = directory.file("c.sock")
        let port = try freePort()
        let daemon = try SingletondProcess([
            "--nmea", source.path, "--listen", "\(port)", "--control", control, "--output", "/dev/null",
        ])
        defer { daemon.kill() }
        try #require(await daemon.stderr.line(containing: "ready:") != nil, "\(daemon.stderr.history)")
        let probe = StatusProbe(client: try #require(StreamClient(path: control)))
        #expect(await blocking { probe.waitForRoundTrips(20) })
        let before = try #require(ResidentMemory(of: daemon.pid))
        let peakResets = ResidentMemory.resetPeak(of: daemon.pid)

        // NUL bytes: gpsd's ERROR, and the connection stays usable.
        let nul = try #require(StreamClient(port: port))
        #expect(Self.json(await nul.readLine())?["class"]?.stringValue == "VERSION")
        nul.send(bytes: [0, 0, 0x3F, 0, 0x0A] + Array("?VERSION;\n".utf8))
        #expect(Self.json(await nul.readLine())?["message"]?.stringValue?.hasPrefix("Unrecognized request") == true)
        #expect(Self.json(await nul.readLine())?["class"]?.stringValue == "VERSION")

        // A 10 MB line: refused at 4 KiB and skipped up to its newline, not buffered.
        let huge = try #require(StreamClient(port: port))
        huge.limitSendTime(seconds: 60)
        #expect(Self.json(await huge.readLine())?["class"]?.stringValue == "VERSION")
        let hugeLine = [UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20) + Array("\n?VERSION;\n".utf8)
        #expect(await blocking { huge.send(bytes: hugeLine) }, "the daemon reads a long line at the pace it comes")
        #expect(await huge.readLine()?.contains("request longer than 4096 bytes") == true)
        #expect(await huge.readLine(containing: "\"class\":\"VERSION\"") != nil, "the rest was skipped")
        let afterHugeLine = try #require(ResidentMemory(of: daemon.pid))

        // ?WATCH toggled a thousand times in one go without reading: the replies beyond the client's queue are
        // dropped and counted, the connection stays up, and the last toggle is in force.
        let toggler = try #require(StreamClient(port: port))
        toggler.limitSendTime(seconds: 60)
        #expect(Self.json(await toggler.readLine())?["class"]?.stringValue == "VERSION")
        let toggles = String(
            repeating: "?WATCH={\"enable\":true,\"json\":true}\n?WATCH={\"enable\":false};\n", count: 1_000)
        #expect(await blocking { toggler.send(toggles + "?VERSION;\n") })
        let lastWatch = await blocking { () -> String? in
            var last: String?
            while let line = toggler.readLineNow(timeout: 60), !line.contains("\"class\":\"VERSION\"") {
                if line.contains("\"class\":\"WATCH\"") { last = line }
            }
            return last
        }
        #expect(Self.json(lastWatch)?["enable"]?.boolValue == false, "\(lastWatch ?? "no WATCH")")

        // A watcher that never reads while fixes stream in as fast as the daemon takes them: it loses its oldest
        // reports (logged once), is not dropped, and costs no more than its queue.
        let silent = try #require(StreamClient(port: port, receiveBuffer: 4_096))
        silent.send("?WATCH={\"enable\":true,\"json\":true}\n")
        // Its watch is in force before the first fix is written: otherwise a listener starved until every report
        // was published would answer the WATCH after them, and the watcher would have nothing to lose.
        #expect(await silent.readLine(containing: "\"class\":\"WATCH\"") != nil)
        let writer = FIFOWriter(fd: source.fd, bytes: DemoTrack.nmea(), passes: 40)
        let slow = await daemon.stderr.line(containing: "reads too slowly", timeout: 60)
        #expect(slow?.contains("notice: gpsd: client") == true, "\(daemon.stderr.history.suffix(5))")
        let passesWritten = await writer.stop()
        let status = await Self.listenerStatus(control: control)
        #expect((status?["droppedReports"]?.doubleValue ?? 0) > 0, "\(String(describing: status))")
        #expect(status?["watching"]?.doubleValue == 1)

        // A thousand connections at once: the listener holds 64 (the four above and 60 of the flood), tells the
        // others so and closes them; the control socket answers half-way through. The listener closes a client that
        // watches nothing after 60 s without a request, on the registry's clock, and a loaded machine can take longer over
        // the steps above: each held client sends a request just before, and the places the flood can take are
        // counted from the status read then (a client closed as idle earlier leaves a place the flood takes).
        for client in [nul, huge, toggler] {
            client.send("?VERSION;\n")
            _ = await client.readLine(containing: "\"class\":\"VERSION\"")
        }
        let statusBeforeFlood = await Self.listenerStatus(control: control)
        let held = Int(try #require(statusBeforeFlood?["connected"]?.doubleValue))
        // At least the watcher, which is never idle, and the last client, which was just answered.
        #expect((2...4).contains(held), "\(String(describing: statusBeforeFlood))")
        let (flood, answeredMidFlood) = await blocking {
            var answered = false
            let flood = ConnectionFlood(.loopback(port), count: floodSize) { index in
                if index == floodSize / 2 { answered = probe.waitForRoundTrips(probe.count + 1) }
            }
            return (flood, answered)
        }
        #expect(flood.failures.isEmpty, "\(flood.failures.prefix(3))")
        #expect(answeredMidFlood, "the control socket answers during the flood")
        let lines = await blocking { flood.firstLines() }
        let served = lines.count { Self.json($0)?["class"]?.stringValue == "VERSION" }
        let refused = lines.count { $0?.contains("too many clients (64)") == true }
        #expect(served == 64 - held, "the flood fills the listener's places and no more")
        #expect(refused == floodSize - served)
        flood.close()

        #expect(await blocking { probe.waitForRoundTrips(probe.count + 5) })
        let after = try #require(ResidentMemory(of: daemon.pid))
        let (latencies, failures) = await probe.stop()
        #expect(failures.isEmpty, "\(failures)")
        let hugeLineGrowth = (peakResets ? afterHugeLine.peak : afterHugeLine.current) - before.current
        let growth = (peakResets ? after.peak : after.current) - before.current
        print(
            """
            GPSDListenerFaultTests: status round trips \(latencies.count), \
            p99 \(SingletondFaultTests.milliseconds(latencies, quantile: 0.99)), \
            max \(SingletondFaultTests.milliseconds(latencies, quantile: 1)); passes written \(passesWritten); \
            VmRSS before \(ResidentMemory.megabytes(before.current)), growth \(ResidentMemory.megabytes(growth)), \
            while the 10 MB line passed \(ResidentMemory.megabytes(hugeLineGrowth))
            """)
        if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil {
            #expect(hugeLineGrowth < 8 << 20, "a 10 MB line is not buffered")
            #expect(growth < 32 << 20, "memory stays bounded under abuse")
        }
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        let log = daemon.stderr.history + (await daemon.stderr.rest())
        #expect(log.count { $0.contains("reads too slowly") || $0.contains("lost reports") } <= 2)
        // The first refusal is logged as it is, the next ones as a count at most once a minute (with the next refusal
        // after it): one "refusing" line, and the others counts, no more than the minutes of the suite's 3-minute
        // limit, however long the flood took on a loaded machine.
        let refusalLines = log.filter { $0.contains("refus") }
        let firstLines = refusalLines.filter {
            $0.hasSuffix("gpsd: 64 clients connected; refusing new ones until one leaves")
        }
        let countLines = refusalLines.filter {
            $0.contains("gpsd: refused ") && $0.hasSuffix(" more clients: too many clients")
        }
        #expect(firstLines.count == 1, "the refusals do not flood the log: \(refusalLines.prefix(3))")
        #expect(countLines.count <= 3 && firstLines.count + countLines.count == refusalLines.count, "\(refusalLines)")
    }
}
