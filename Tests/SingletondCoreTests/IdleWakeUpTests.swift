import Foundation
import GNSSProtocol
import TestSupport
import Testing

/// What wakes a daemon whose file source has ended: none of its own threads (the main thread, the control socket's,
/// a source's reader), only libdispatch's workqueue monitor, which re-arms a `timerfd` once a second on the
/// dispatch manager thread to count its runnable workers (the runtime's, not a service of the daemon; see
/// Documentation/Singletond.md). Worker threads that libdispatch retires after idling may show up too: they are its
/// own as well. What those wake-ups cost in CPU time is bounded over the same window.
@Suite(.serialized, .requires([.tool("strace", package: "strace")]), .hangBound)
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
        let binary = try #require(SingletondProcess.binary, "singletond is not built next to the test bundle")
        // The daemon runs under strace from its start: tracing a child needs no privilege, where attaching to a
        // running process does (Yama's ptrace_scope, CAP_SYS_PTRACE).
        let trace = directory.file("strace.txt")
        // LeakSanitizer cannot run under ptrace and would fail the daemon's exit in an address-sanitizer build.
        var environment = ProcessInfo.processInfo.environment
        environment["ASAN_OPTIONS"] = [environment["ASAN_OPTIONS"], "detect_leaks=0"].compactMap { $0 }
            .joined(separator: ":")
        let traced = try ChildProcess(
            strace,
            [
                "-f", "-qq", "-o", trace, binary, "--nmea", source, "--control", directory.file("c.sock"), "--output",
                "/dev/null",
            ], environment: environment, stderr: .pipe, ownTemporaryDirectory: true)
        defer { traced.kill() }
        #expect(await traced.stderr.line(containing: "location: idle (") != nil, "\(traced.stderr.history)")
        let pid = try await Self.daemon(of: traced)

        // The daemon's own threads, by the names it gives them; the main thread is the process. A thread names
        // itself once it runs, which may come after the daemon logged its start: the test waits for the control
        // thread's name, so that its naming calls are over before the window opens.
        func ownThreads() -> Set<String> {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return Set(
                tasks.filter { task in
                    let name = RawFile.text("/proc/\(pid)/task/\(task)/comm") ?? ""
                    return task == String(pid) || name.hasPrefix("singletond-") || name.hasPrefix("ByteReader")
                })
        }
        let named = try await Polling.firstAnswer(while: { traced.isRunning }) {
            ownThreads().count >= 2 ? ownThreads() : nil
        }
        let own = try #require(named, "the main and control threads: \(ownThreads())")

        // The window: from the monitor's second re-arm after the daemon went idle (what ending the source left to do
        // is done by then) until it has re-armed four times more. Its ends are events the test waits for, seen in
        // the trace, and the daemon's CPU time is read at each.
        let idle = (RawFile.text(trace) ?? "").split(separator: "\n").count
        let start = await Self.lines(of: trace, after: idle, rearms: 2, while: { traced.isRunning }) ?? []
        let cpuBefore = try #require(Self.cpuTime(of: pid))
        let window = await Self.lines(of: trace, after: start.count, rearms: 4, while: { traced.isRunning })
        let cpuUsed = try #require(Self.cpuTime(of: pid)) - cpuBefore
        let lines = try #require(window, "the timer was not re-armed six times: \(traced.stderr.history)")
            .dropFirst(start.count)

        // Each line starts with the thread's ID.
        func thread(_ line: Substring) -> String { String(line.prefix { $0 != " " }) }
        let monitor = Set(lines.filter { $0.contains("timerfd_settime(") }.map(thread))
        #expect(monitor.count == 1, "one thread arms the timer: \(monitor)")
        #expect(monitor.isDisjoint(with: own), "the timer is not the daemon's own: \(monitor)")
        let ours = lines.filter { own.contains(thread($0)) }
        #expect(ours.isEmpty, "the daemon's own threads woke: \(ours.prefix(10))")
        // What the wake-ups cost, every thread of the daemon counted, under strace: a few clock ticks at most, where
        // a thread that spins (which makes no call strace would show) takes its share of a core for four seconds.
        #expect(cpuUsed < .milliseconds(100), "an idle daemon used \(cpuUsed) of CPU over four of the timer's periods")

        kill(pid, SIGTERM)
        let status = await traced.wait()
        let log = traced.stderr.history + (await traced.stderr.rest())
        #expect(status == .exited(0), "\(status): \(log.suffix(5))")
    }

    /// The lines of `trace` up to the `rearms`-th `timerfd_settime` call after its first `after` lines, once the
    /// trace has them; `nil` when the daemon ended first.
    static func lines(of trace: String, after: Int, rearms: Int, while isRunning: () -> Bool) async -> [Substring]? {
        try? await Polling.firstAnswer(while: isRunning) { () -> [Substring]? in
            let lines = (RawFile.text(trace) ?? "").split(separator: "\n")
            let found = lines.indices.dropFirst(after).filter { lines[$0].contains("timerfd_settime(") }
            return found.count >= rearms ? Array(lines[...found[rearms - 1]]) : nil
        }
    }

    /// The user plus system CPU time of all of `pid`'s threads (fields 14 and 15 of `/proc/PID/stat`, in clock
    /// ticks).
    static func cpuTime(of pid: pid_t) -> Duration? {
        guard let stat = RawFile.text("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": field 3 is the state, so utime and stime are the 12th and 13th fields from there.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        return .milliseconds((user + system) * 1_000 / ticksPerSecond)
    }

    /// The daemon strace started (strace also forks short-lived copies of itself at start, to probe what ptrace
    /// supports).
    static func daemon(of traced: ChildProcess) async throws -> pid_t {
        let pid = try await Polling.firstAnswer(while: { traced.isRunning }) { () -> pid_t? in
            let list = RawFile.text("/proc/\(traced.pid)/task/\(traced.pid)/children") ?? ""
            return list.split(separator: " ").compactMap { pid_t($0) }.first { pid in
                let commandLine = RawFile.bytes("/proc/\(pid)/cmdline") ?? []
                let first = commandLine.split(separator: 0).first.map { String(decoding: $0, as: UTF8.self) }
                return first?.hasSuffix("singletond") == true
            }
        }
        return try #require(pid, "strace started no singletond: \(traced.stderr.history)")
    }
}
