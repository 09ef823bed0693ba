import Foundation
import GNSSProtocol
import Testing

extension DaemonEndToEndTests {
    /// A daemon whose source is a FIFO the test holds open and never writes: no fixes, no clients, nothing to do.
    private func startIdle(in directory: TemporaryDirectory) async throws -> (DaemonProcess, fifo: Int32) {
        let fifoPath = directory.file("nmea")
        try #require(mkfifo(fifoPath, 0o600) == 0)
        // Read-write: opening does not wait for the daemon, and the daemon's source never sees an end.
        let fifo = open(fifoPath, O_RDWR | O_CLOEXEC)
        try #require(fifo >= 0)
        let daemon = try DaemonProcess([
            "--nmea", fifoPath, "--control", directory.file("c.sock"), "--output", "/dev/null",
        ])
        try #require(await daemon.stderr.line(containing: "ready:") != nil, "\(daemon.stderr.history)")
        return (daemon, fifo)
    }

    /// A shutdown that cannot finish: the output is a FIFO that nobody reads, filled with more TPV lines than its
    /// pipe holds, so closing the output waits for a writer that is stuck until the hard deadline.
    @Test func aSecondSignalDuringShutdownExitsAtOnce() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let track = directory.file("track.nmea")
        try Self.manyEpochs(2_000).write(toFile: track, atomically: false, encoding: .utf8)
        let outputPath = directory.file("out")
        try #require(mkfifo(outputPath, 0o600) == 0)
        // Read-write, so the daemon's open does not wait for a reader; the test never reads it.
        let output = open(outputPath, O_RDWR | O_CLOEXEC)
        try #require(output >= 0)
        defer { close(output) }
        let daemon = try DaemonProcess([
            "--nmea", track, "--control", directory.file("c.sock"), "--output", outputPath,
        ])
        defer { daemon.kill() }
        // Every fix has been handed to the output, whose writer is now blocked on the full pipe.
        let ended = await daemon.stderr.line(containing: "location: idle (NMEA file")
        try #require(ended != nil, "\(daemon.stderr.history)")

        daemon.signal(SIGTERM)
        #expect(await daemon.stderr.line(containing: "SIGTERM: shutting down") != nil)
        daemon.signal(SIGINT)
        let status = await daemon.exitStatus()
        #expect(status == 128 + SIGINT, "exit status \(String(describing: status)): \(daemon.stderr.history)")
        let log = await daemon.stderr.rest()
        #expect(!log.contains { $0.contains("stopped") || $0.contains("shutdown took longer") }, "\(log)")
    }

    /// `count` one-second epochs of RMC and GGA.
    static func manyEpochs(_ count: Int) -> String {
        (0..<count).map { n in
            let time = String(format: "%02d%02d%02d.00", 10 + n / 3_600, n / 60 % 60, n % 60)
            return NMEAChecksum.sentence("GPRMC,\(time),A,5221.480,N,00452.300,E,001.0,090.0,221126,,,A")
                + NMEAChecksum.sentence("GPGGA,\(time),5221.480,N,00452.300,E,1,08,0.9,10.0,M,46.9,M,,")
        }.joined()
    }

    @Test func anIdleDaemonUsesNoCPU() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, fifo) = try await startIdle(in: directory)
        defer {
            daemon.kill()
            close(fifo)
        }
        let before = try #require(Self.cpuTime(of: daemon.pid))
        // The measurement window: what the daemon does on its own while nothing happens.
        try await Task.sleep(for: .seconds(2))
        let used = try #require(Self.cpuTime(of: daemon.pid)) - before
        // A busy-polling loop would use most of a core; sleeping threads use a few clock ticks at most.
        #expect(used < .milliseconds(100), "an idle daemon used \(used) of CPU in 2 s")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }

    /// The user plus system CPU time of `pid` (fields 14 and 15 of `/proc/PID/stat`, in clock ticks).
    static func cpuTime(of pid: pid_t) -> Duration? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)": field 3 is the state, so utime and stime are the 12th and 13th fields from there.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        return .milliseconds((user + system) * 1_000 / ticksPerSecond)
    }
}
