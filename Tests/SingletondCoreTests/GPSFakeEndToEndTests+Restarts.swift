import Foundation
import TestSupport
import Testing

extension GPSFakeEndToEndTests {
    /// What a process holds that a leak per reconnect would grow: descriptors, threads, resident memory.
    struct Holdings: CustomStringConvertible {
        var descriptors: Int
        var threads: Int
        var memory: ResidentMemory

        init?(of pid: pid_t) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"),
                let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }),
                let threads = Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)),
                let memory = ResidentMemory(of: pid)
            else { return nil }
            self.descriptors = names.count
            self.threads = threads
            self.memory = memory
        }

        var description: String {
            "\(descriptors) descriptors, \(threads) threads, VmRSS \(ResidentMemory.megabytes(memory.current))"
        }
    }

    /// gpsd goes away and comes back again and again: the daemon reconnects each time, and what it holds after the
    /// tenth gpsd is what it held after the third.
    @Test func repeatedGpsdRestartsLeakNothing() async throws {
        let gpsfake = try Self.tool("gpsfake")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let port = try freePort()
        let daemon = try SingletondProcess([
            "--gpsd", "127.0.0.1:\(port)", "--control", directory.file("c.sock"), "--output", "/dev/null",
        ])
        defer { daemon.kill() }

        var warm: Holdings?
        for round in 1...10 {
            // Without -1 gpsfake replays the log in a loop, so fixes come whenever the daemon's backoff lets it in.
            let fake = try await GPSFake.start(gpsfake, ["-n", "-q", "-c", "0.01", Self.fixture], port: port).process
            defer { fake.kill() }
            let fixed = await daemon.stderr.line(containing: "location: fixed (gpsd", timeout: 90)
            try #require(
                fixed != nil,
                "round \(round): no fix; daemon: \(daemon.stderr.history.suffix(8)); gpsfake: \(fake.errorOutput)")
            // gpsfake's SIGTERM handler stops its gpsd, which closes the daemon's connection. The handler can loop
            // for ever once gpsd is gone (see ChildProcess.gpsfakeTerminationBound): then the group is killed.
            _ = await fake.terminateAndWait(hangBound: ChildProcess.gpsfakeTerminationBound)
            let lost = await daemon.stderr.line(containing: "location: reconnecting to gpsd", timeout: 60)
            try #require(lost != nil, "round \(round): the daemon did not notice gpsd leave")
            if round == 3 { warm = Holdings(of: daemon.pid) }
        }
        let before = try #require(warm)
        let after = try #require(Holdings(of: daemon.pid))
        print("GPSFakeEndToEndTests: after 3 gpsd restarts \(before); after 10 \(after)")
        #expect(after.descriptors == before.descriptors, "descriptors leak per reconnect: \(before) → \(after)")
        #expect(after.threads <= before.threads + 1, "threads leak per reconnect: \(before) → \(after)")
        // Under AddressSanitizer freed memory waits in its quarantine, so resident memory says nothing there.
        if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil {
            #expect(
                after.memory.current - before.memory.current < 4 << 20,
                "memory grows with reconnects: \(before) → \(after)")
        }
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }
}
