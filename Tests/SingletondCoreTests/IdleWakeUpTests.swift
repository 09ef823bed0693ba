import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// What wakes a daemon whose file source has ended: none of its own threads (the main thread, the control socket's,
/// a source's reader), only libdispatch's workqueue monitor, which re-arms a `timerfd` once a second on the
/// dispatch manager thread to count its runnable workers (the runtime's, not a service of the daemon; see
/// Documentation/Singletond.md). Worker threads that libdispatch retires after idling may show up too: they are its
/// own as well.
@Suite(.serialized, .requires([.tool("strace", package: "strace")]), .timeLimit(.minutes(2)))
struct IdleWakeUpTests {
    @Test func anIdleDaemonWakesOnlyForTheRuntimesMonitor() async throws {
        let strace = try #require(Machine.path(of: "strace"), "strace is missing: apt-get install strace")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("one.nmea")
        try
            (NMEAChecksum.sentence("GPRMC,100000.00,A,5221.480,N,00452.300,E,001.0,090.0,221126,,,A")
            + NMEAChecksum.sentence("GPGGA,100000.00,5221.480,N,00452.300,E,1,08,0.9,10.0,M,46.9,M,,"))
            .write(toFile: source, atomically: false, encoding: .utf8)
        let daemon = try SingletondProcess([
            "--nmea", source, "--control", directory.file("c.sock"), "--output", "/dev/null",
        ])
        defer { daemon.kill() }
        #expect(await daemon.stderr.line(containing: "location: idle (") != nil, "\(daemon.stderr.history)")

        // The daemon's own threads, by the names it gives them; the main thread is the process.
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/task")
        let own = Set(
            tasks.filter { task in
                let name = (RawFile.text("/proc/\(daemon.pid)/task/\(task)/comm") ?? "")
                return task == String(daemon.pid) || name.hasPrefix("singletond-") || name.hasPrefix("ByteReader")
            })
        #expect(own.count >= 2, "the main and control threads: \(tasks)")

        // Trace every system call of every thread until the monitor has re-armed its timer four times.
        let trace = directory.file("strace.txt")
        let traced = try ChildProcess(
            strace, ["-f", "-qq", "-o", trace, "-p", String(daemon.pid)], stderr: .kept, ownTemporaryDirectory: true)
        defer { traced.kill() }
        let window = try await Polling.firstAnswer(while: { traced.isRunning }) { () -> [Substring]? in
            let lines = (RawFile.text(trace) ?? "").split(separator: "\n")
            return lines.count { $0.contains("timerfd_settime(") } >= 4 ? lines : nil
        }
        traced.signal(SIGINT)
        let lines = try #require(window, "no four timerfd_settime calls: \(RawFile.text(trace) ?? traced.errorOutput)")

        // Each line starts with the thread's ID. A thread's first line is the call it was blocked in when strace
        // attached, not a wake-up.
        var attached: Set<Substring> = []
        var woken: [(thread: Substring, call: Substring)] = []
        for line in lines {
            guard let thread = line.split(separator: " ").first else { continue }
            if attached.insert(thread).inserted { continue }
            if !line.contains("resumed>") { woken.append((thread, line)) }
        }
        let monitor = Set(woken.filter { $0.call.contains("timerfd_settime(") }.map(\.thread))
        #expect(monitor.count == 1, "one thread arms the timer: \(monitor)")
        #expect(monitor.allSatisfy { !own.contains(String($0)) }, "the timer is not the daemon's own: \(monitor)")
        let ours = woken.filter { own.contains(String($0.thread)) }.map(\.call)
        #expect(ours.isEmpty, "the daemon's own threads woke: \(ours.prefix(10))")

        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }
}
