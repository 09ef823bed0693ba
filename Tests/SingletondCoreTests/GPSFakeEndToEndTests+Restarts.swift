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

        /// What `pid` holds once no `ByteReader` thread runs in it and `settled` holds of it, asked again and again
        /// (see ``Polling``); `nil` when that did not come within the polling's bound. The daemon logs that it
        /// reconnects before the old connection's reader thread has ended, and that thread's end is what closes the
        /// gpsd socket and the reader's wake pipe; a reconnect attempt holds a socket for a moment besides.
        static func settled(of pid: pid_t, _ settled: (Holdings) -> Bool = { _ in true }) async throws -> Holdings? {
            try await Polling.firstAnswer(while: { kill(pid, 0) == 0 }) {
                guard !readerThreadRuns(in: pid), let holdings = Holdings(of: pid), settled(holdings) else {
                    return nil
                }
                return holdings
            }
        }

        /// Whether a thread of `pid` is named `ByteReader …` (a connection's reader).
        static func readerThreadRuns(in pid: pid_t) -> Bool {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return tasks.contains { task in
                let name = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)
                return name?.hasPrefix("ByteReader") == true
            }
        }
    }

    /// gpsd goes away and comes back again and again: the daemon reconnects each time, and what it holds after the
    /// tenth gpsd, once its old connection's reader has ended, comes back to what it held after the third.
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
            if round == 3 { warm = try await Holdings.settled(of: daemon.pid) }
        }
        let before = try #require(warm, "the third gpsd's reader thread did not end")
        // A reconnect attempt's socket counted in `before` can only make it larger, by one: a leak of a descriptor
        // or a thread per reconnect is seven or more after seven more rounds, never settles, and fails here.
        let settled = try await Holdings.settled(of: daemon.pid) {
            $0.descriptors <= before.descriptors && $0.threads <= before.threads + 1
        }
        let after = try #require(settled ?? Holdings(of: daemon.pid))
        print("GPSFakeEndToEndTests: after 3 gpsd restarts \(before); after 10 \(after)")
        #expect(settled != nil, "descriptors or threads leak per reconnect: \(before) → \(after)")
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
