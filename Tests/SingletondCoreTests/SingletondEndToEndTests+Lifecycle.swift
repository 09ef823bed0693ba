import Foundation
import GNSSProtocol
import TestSupport
import Testing

extension SingletondEndToEndTests {
    /// Runs `body` with a daemon whose source is a FIFO the test holds open and never writes: no fixes, no
    /// clients, nothing to do.
    private func withIdleDaemon(_ body: (SingletondProcess) async throws -> Void) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let source = try HeldFIFO(directory.file("nmea"))
        defer { source.close() }
        let daemon = try SingletondProcess([
            "--nmea", source.path, "--control", directory.file("c.sock"), "--output", "/dev/null",
        ])
        defer { daemon.kill() }
        try #require(await daemon.stderr.line(containing: "ready:") != nil, "\(daemon.stderr.history)")
        try await body(daemon)
    }

    /// Runs `body` with a daemon whose shutdown cannot finish: its output file was rotated and the new one is held
    /// with a read lease (`F_SETLEASE`), so that SIGHUP's reopen waits in `open(2)` for the lease's break (45 s), and
    /// the stop waits behind it. The test polls the lease
    /// for the start of its break, up to a bound that only catches a hang.
    private func withStuckOutput(
        stopTimeout: String, _ body: (SingletondProcess) async throws -> Void
    ) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let source = try HeldFIFO(directory.file("nmea"))
        defer { source.close() }
        let output = directory.file("tpv.log")
        let daemon = try SingletondProcess([
            "--nmea", source.path, "--control", directory.file("c.sock"), "--output", output,
            "--stop-timeout", stopTimeout,
        ])
        defer { daemon.kill() }
        try #require(await daemon.stderr.line(containing: "ready:") != nil, "\(daemon.stderr.history)")
        try #require(rename(output, output + ".1") == 0)
        let leased = open(output, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        try #require(leased >= 0)
        defer { close(leased) }
        // The break is signalled with SIGURG, which nobody handles and is ignored by default (SIGIO would end the
        // test process).
        let setSignal: Int32 = 10  // F_SETSIG
        let setLease: Int32 = 1_024  // F_SETLEASE
        let getLease: Int32 = 1_025  // F_GETLEASE
        try #require(fcntl(leased, setSignal, SIGURG) == 0 && fcntl(leased, setLease, Int32(F_RDLCK)) == 0)
        daemon.signal(SIGHUP)
        // The kernel announces the break only by the signal: ask until it began, while the daemon runs.
        let broken = try await Polling.firstAnswer(while: { daemon.isRunning }) {
            fcntl(leased, getLease) == Int32(F_UNLCK) ? true : nil
        }
        try #require(broken == true, "the reopen never came: \(daemon.stderr.history)")
        try await body(daemon)
    }

    /// The stop timeout is long, so only the second signal can end this shutdown, however slowly the test reacts.
    /// SIGUSR1, SIGUSR2 and the other signals the daemon gives no meaning are ignored: it goes on serving, and
    /// SIGTERM still stops it cleanly, removing its socket file (SIGUSR1 killed it with 138, leaving the file).
    @Test func signalsWithoutAMeaningAreIgnored() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, control) = try await startDemo(in: directory)
        defer { daemon.kill() }
        for signo in [SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGIO, SIGPWR, SIGXFSZ] { daemon.signal(signo) }
        // A reply needs the daemon's threads back in user space, where a pending signal is delivered first.
        let client = try #require(StreamClient(path: control))
        client.send("{\"cmd\":\"status\"}\n")
        #expect(await client.readLine()?.contains("\"class\":\"STATUS\"") == true)
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0, "\(daemon.stderr.history)")
        #expect(!FileManager.default.fileExists(atPath: control))
    }

    @Test func aSecondSignalDuringShutdownExitsAtOnce() async throws {
        try await withStuckOutput(stopTimeout: "600") { daemon in
            daemon.signal(SIGTERM)
            #expect(await daemon.stderr.line(containing: "SIGTERM: shutting down") != nil)
            daemon.signal(SIGINT)
            let status = await daemon.exitStatus()
            #expect(status == 128 + SIGINT, "exit status \(String(describing: status)): \(daemon.stderr.history)")
            let log = await daemon.stderr.rest()
            #expect(!log.contains { $0.contains("stopped") || $0.contains("shutdown took longer") }, "\(log)")
        }
    }

    @Test func aShutdownThatHangsExits1AtTheStopTimeout() async throws {
        try await withStuckOutput(stopTimeout: "0.5") { daemon in
            daemon.signal(SIGTERM)
            let status = await daemon.exitStatus()
            #expect(status == 1, "exit status \(String(describing: status)): \(daemon.stderr.history)")
            let log = await daemon.stderr.rest()
            #expect(log.contains { $0.contains("error: shutdown took longer than 0.5 seconds; exiting now") }, "\(log)")
            #expect(!log.contains { $0.contains("stopped") }, "\(log)")
        }
    }

    /// Only the signal handler's thread takes SIGTERM, SIGINT and SIGHUP (its `sigtimedwait(2)` unblocks them while
    /// it waits): a thread that did not block them would take a signal first and end the process with its default
    /// action, or leave it to a handler that does not run.
    @Test func everyThreadLeavesTheSignalsToTheSignalHandlersThread() async throws {
        try await withIdleDaemon { daemon in
            let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/task").filter {
                (try? String(contentsOfFile: "/proc/\(daemon.pid)/task/\($0)/comm", encoding: .utf8))?
                    .hasPrefix("singletond-sig") != true
            }
            let masks = threads.compactMap { thread in Self.blockedSignals(pid: daemon.pid, thread: thread) }
            #expect(threads.contains(String(daemon.pid)) && masks.count >= 2, "threads \(threads)")
            for (thread, blocked) in masks {
                for signo in [SIGTERM, SIGINT, SIGHUP] {
                    #expect(blocked & (1 << UInt64(signo - 1)) != 0, "thread \(thread) takes signal \(signo)")
                }
            }
            daemon.signal(SIGTERM)
            #expect(await daemon.exitStatus() == 0)
        }
    }

    /// The thread's name and its blocked-signal mask (`SigBlk` of `/proc/PID/task/TID/status`, bit N-1 for signal
    /// N), or nil when the thread has ended.
    static func blockedSignals(pid: pid_t, thread: String) -> (String, UInt64)? {
        let directory = "/proc/\(pid)/task/\(thread)"
        guard let status = try? String(contentsOfFile: "\(directory)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
            let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return nil }
        let name = (try? String(contentsOfFile: "\(directory)/comm", encoding: .utf8)) ?? ""
        return ("\(thread) \(name.trimmingCharacters(in: .newlines))", mask)
    }

    /// `count` one-second cycles of RMC and GGA.
    static func manyCycles(_ count: Int) -> String {
        (0..<count).map { n in
            let time = String(format: "%02d%02d%02d.00", 10 + n / 3_600, n / 60 % 60, n % 60)
            return NMEAChecksum.sentence("GPRMC,\(time),A,5221.480,N,00452.300,E,001.0,090.0,221126,,,A")
                + NMEAChecksum.sentence("GPGGA,\(time),5221.480,N,00452.300,E,1,08,0.9,10.0,M,46.9,M,,")
        }.joined()
    }
}

extension SingletondEndToEndTests {
    /// Whether `pid` blocks SIGTERM: the `SigBlk` mask of `/proc/PID/status`.
    private func blocksSIGTERM(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
            let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(SIGTERM - 1)) != 0
    }

    /// A SIGTERM sent the moment `main` has blocked the signals, before the daemon has opened anything, is taken at
    /// once and ends it cleanly: logged, never announced ready after it, exit 0. The test polls `/proc` for the
    /// signal mask (the process announces nothing earlier), up to a bound that only catches a hang.
    @Test func aSignalAtTheFirstMomentOfStartupEndsTheDaemonCleanly() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let daemon = try SingletondProcess(["--demo", "--control", directory.file("c.sock"), "--output", "/dev/null"])
        defer { daemon.kill() }
        var polls = 0
        while !blocksSIGTERM(daemon.pid), polls < 100_000 {
            polls += 1
            try await Task.sleep(for: .milliseconds(1))
        }
        try #require(blocksSIGTERM(daemon.pid), "the daemon never blocked SIGTERM: \(daemon.stderr.history)")
        daemon.signal(SIGTERM)
        let status = await daemon.exitStatus()
        let log = await daemon.stderr.rest()
        #expect(status == 0, "\(log)")
        let signalled = try #require(log.firstIndex { $0.contains("SIGTERM: shutting down") }, "\(log)")
        #expect(!log[signalled...].contains { $0.contains(" ready: ") }, "announced ready after the signal: \(log)")
        // The daemon's lines start with their time; LeakSanitizer may add its report of suppressions after them.
        let daemonLines = log.filter { $0.first?.isNumber == true }
        #expect(daemonLines.last?.contains("info: stopped") == true, "\(log)")
    }
}
