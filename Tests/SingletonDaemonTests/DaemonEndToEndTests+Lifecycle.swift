import Foundation
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

    @Test func aSecondSignalDuringShutdownExitsAtOnce() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, fifo) = try await startIdle(in: directory)
        defer {
            daemon.kill()
            close(fifo)
        }
        // The second signal arrives while the first one's graceful shutdown has only begun. Dispatch does not order
        // the two signals' handlers, so the one handled second names the exit status: 128 + SIGINT or SIGTERM.
        daemon.signal(SIGTERM)
        daemon.signal(SIGINT)
        let status = await daemon.exitStatus()
        #expect(
            status == 128 + SIGINT || status == 128 + SIGTERM,
            "exit status \(String(describing: status)): \(daemon.stderr.history)")
        let log = await daemon.stderr.rest()
        #expect(!log.contains { $0.contains("info: stopped") }, "the second signal did not wait for the shutdown")
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
