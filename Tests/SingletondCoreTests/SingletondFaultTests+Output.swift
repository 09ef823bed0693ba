import Foundation
import TestSupport
import Testing

/// An output that cannot be written: the daemon says so once, naming it, and keeps serving.
extension SingletondFaultTests {
    /// Checks that the daemon behind `control` answers `status` and sends a watcher TPV lines.
    private func expectServing(_ control: String) async throws {
        let status = try await SingletondProcess.run(["status", "--control", control])
        #expect(status.status == 0)
        #expect(Self.json(status.stdout.first)?["class"]?.stringValue == "STATUS")
        let watcher = try #require(StreamClient(path: control))
        watcher.send("{\"cmd\":\"watch\"}\n")
        #expect(await watcher.readLine(containing: "\"class\":\"TPV\"") != nil)
        #expect(await watcher.readLine(containing: "\"class\":\"TPV\"") != nil)
    }

    @Test func anOutputOnAFullDeviceIsReportedOnceAndTheDaemonKeepsServing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let control = directory.file("c.sock")
        let daemon = try SingletondProcess(["--control", control, "--output", "/dev/full"])
        defer { daemon.kill() }
        let error = await daemon.stderr.line(containing: "cannot write TPV lines")
        #expect(
            error?.contains("error: cannot write TPV lines to /dev/full: No space left on device") == true,
            "\(daemon.stderr.history)")
        try await expectServing(control)
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        let log = daemon.stderr.history + (await daemon.stderr.rest())
        #expect(log.count { $0.contains("until it works again") } == 1, "logged once, not once per line")
        #expect(log.count { $0.contains("cannot write TPV lines") } <= 2, "and counted once at the stop")
    }

    /// A file of 2,000 cycles, read at once, into `/dev/full`: the first failure is said, and at SIGTERM the lines
    /// lost since. The first cycle makes two fixes (after its RMC and after its GGA, as gpsd reports a first
    /// cycle), so 2,001 in all and up to 2,000 lost since the first: fixes that come faster than the output takes
    /// them may be merged.
    @Test func theLinesLostOnAFullDeviceAreCountedAtTheStop() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let track = directory.file("track.nmea")
        try SingletondEndToEndTests.manyCycles(2_000).write(toFile: track, atomically: false, encoding: .utf8)
        let daemon = try SingletondProcess([
            "--nmea", track, "--control", directory.file("c.sock"), "--output", "/dev/full",
        ])
        defer { daemon.kill() }
        // Every fix has been handed to the output.
        let ended = await daemon.stderr.line(containing: "location: idle (\(track) ended)")
        try #require(ended != nil, "\(daemon.stderr.history)")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
        let log = daemon.stderr.history + (await daemon.stderr.rest())
        let losses = log.filter { $0.contains("cannot write TPV lines") }
        #expect(losses.count == 2, "\(log)")
        #expect(losses.first?.hasSuffix("dropping lines until it works again") == true, "\(log)")
        let prefix = "error: cannot write TPV lines to /dev/full: No space left on device; "
        let suffix = " more lines lost before the stop"
        let count = losses.last.flatMap { line in
            line.firstRange(of: prefix).flatMap { start in
                line.hasSuffix(suffix) ? Int(line[start.upperBound...].dropLast(suffix.count)) : nil
            }
        }
        #expect(count.map { (1...2_000).contains($0) } == true, "\(log)")
    }

    /// `--output` to a FIFO whose reader opened it and never reads, filled with a file of 2,000 fixes: the file is
    /// read no faster than the FIFO takes lines, so the daemon waits for it, and SIGTERM ends that wait cleanly,
    /// counting the lines the FIFO had no room for.
    @Test func aFIFOWhoseReaderStoppedDoesNotHoldUpTheStop() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let track = directory.file("track.nmea")
        try SingletondEndToEndTests.manyCycles(2_000).write(toFile: track, atomically: false, encoding: .utf8)
        let output = try HeldFIFO(directory.file("out"))
        defer { output.close() }
        let daemon = try SingletondProcess([
            "--nmea", track, "--control", directory.file("c.sock"), "--output", output.path,
        ])
        defer { daemon.kill() }
        // The output has more than the pipe holds, and the source waits for it.
        let waiting = await daemon.stderr.line(containing: "is slower than the source")
        try #require(waiting != nil, "\(daemon.stderr.history)")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0, "\(daemon.stderr.history)")
        let log = daemon.stderr.history + (await daemon.stderr.rest())
        let notWritten = log.first { $0.contains("took no more lines at the stop") }
        #expect(
            notWritten?.contains("warning: output \(output.path) took no more lines at the stop: ") == true, "\(log)")
        #expect(notWritten?.hasSuffix(" TPV lines not written") == true, "\(log)")
        // The daemon's lines start with their time; LeakSanitizer may add its report of suppressions after them.
        let daemonLines = log.filter { $0.first?.isNumber == true }
        #expect(daemonLines.last?.contains("info: stopped") == true, "\(log)")
    }

    @Test func aClosedStandardOutputPipeIsReportedAndTheDaemonKeepsServing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let control = directory.file("c.sock")
        let daemon = try SingletondProcess(["--control", control])
        defer { daemon.kill() }
        // The reader of standard output goes away: writes fail with EPIPE (and SIGPIPE, were it not ignored).
        daemon.stdout.close()
        let error = await daemon.stderr.line(containing: "cannot write TPV lines")
        #expect(
            error?.contains("error: cannot write TPV lines to standard output: Broken pipe") == true,
            "\(daemon.stderr.history)")
        try await expectServing(control)
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0, "not killed by SIGPIPE (141)")
        let log = daemon.stderr.history + (await daemon.stderr.rest())
        #expect(log.count { $0.contains("until it works again") } == 1, "logged once, not once per line")
        #expect(log.count { $0.contains("cannot write TPV lines") } <= 2, "and counted once at the stop")
    }

    /// `--output` to a FIFO nobody reads yet: the daemon starts, serves and takes signals instead of hanging in
    /// `open(2)` before any of that exists, and a reader that comes later gets the TPV lines.
    @Test func aFIFOWithoutAReaderDoesNotHoldUpTheStart() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.file("out")
        try #require(mkfifo(fifo, 0o600) == 0)
        let control = directory.file("c.sock")
        let daemon = try SingletondProcess(["--control", control, "--output", fifo])
        defer { daemon.kill() }
        #expect(await daemon.stderr.line(containing: "ready:") != nil, "\(daemon.stderr.history)")
        try await expectServing(control)
        // A reader comes: the open does not wait (the daemon holds the other end) and lines arrive.
        let reader = LineReader(fd: open(fifo, O_RDONLY | O_CLOEXEC))
        defer { reader.close() }
        #expect(await reader.line(containing: "\"class\":\"TPV\"") != nil)
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }
}
