import Foundation
import TestSupport
import Testing

/// The built `singletond` binary run as a ``TestSupport/ChildProcess``, with its standard output and error as line
/// readers.
///
/// Its exit status reads as a shell's `$?` (``TestSupport/ProcessExit/shellCode``): singletond documents its exit
/// codes, and a signal's death reads as 128 + the signal, the way its service manager and its users see it.
final class SingletondProcess: Sendable {
    /// `singletond` next to the test bundle (`.build/<triple>/debug/`), or `nil`.
    static let binary: String? = {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("singletond").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    private let child: ChildProcess

    /// Starts `singletond arguments` with the test environment plus `environment`.
    ///
    /// With `journal`, `$JOURNAL_STREAM` names the device and inode of the pipe that is the child's standard error,
    /// as systemd sets it when standard error is the journal. With `descriptorLimit`, the daemon runs with that
    /// many file descriptors at most, and with `addressSpaceLimit` with that many MB of address space at most
    /// (`ulimit -n`, `ulimit -v` in a shell that then becomes the daemon). With `cpus` (`"0"`, `"0,1"`), the daemon
    /// runs on those processors only (`taskset -c`, which then becomes the daemon): libdispatch sizes the cooperative
    /// pool by the processors the process may run on, so `"0"` gives it one thread.
    init(
        _ arguments: [String], environment: [String: String] = [:], journal: Bool = false, stdin: String = "/dev/null",
        descriptorLimit: Int? = nil, addressSpaceLimit: Int? = nil, cpus: String? = nil
    ) throws {
        guard let binary = Self.binary else {
            Issue.record("singletond is not built next to the test bundle; run `swift build` first")
            throw CocoaError(.fileNoSuchFile)
        }
        let arguments = Self.withHangOnlyStopTimeout(arguments)
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM", "XDG_RUNTIME_DIR"] {
            env[key] = nil
        }
        env.merge(environment) { $1 }
        if journal { env["JOURNAL_STREAM"] = ChildProcess.stderrIdentityPlaceholder }
        let limits = [descriptorLimit.map { "ulimit -n \($0)" }, addressSpaceLimit.map { "ulimit -v \($0 * 1_024)" }]
            .compactMap { $0 }
        if let cpus {
            child = try ChildProcess(
                "/usr/bin/taskset", ["-c", cpus, binary] + arguments, environment: env, stdin: stdin, stdout: .pipe,
                stderr: .pipe)
        } else if !limits.isEmpty {
            let script = (limits + ["exec \"$0\" \"$@\""]).joined(separator: " && ")
            child = try ChildProcess(
                "/bin/sh", ["-c", script, binary] + arguments, environment: env, stdin: stdin, stdout: .pipe,
                stderr: .pipe)
        } else {
            child = try ChildProcess(binary, arguments, environment: env, stdin: stdin, stdout: .pipe, stderr: .pipe)
        }
    }

    /// `arguments` of a daemon run with `--stop-timeout 600` in front, unless they name a stop timeout: the default
    /// 1.8 s would decide a test on a duration (a starved machine's shutdown exits 1), where the stop timeout's own
    /// tests name theirs. Other commands (`status`, `survey`, `decode`, ...) are left as they are.
    static func withHangOnlyStopTimeout(_ arguments: [String]) -> [String] {
        let hangOnly = ["--stop-timeout", "600"]
        guard !arguments.contains(where: { $0.hasPrefix("--stop-timeout") || $0 == "--help" || $0 == "--version" })
        else { return arguments }
        guard let first = arguments.first else { return hangOnly }
        if first == "run" { return [first] + hangOnly + arguments.dropFirst() }
        return first.hasPrefix("-") ? hangOnly + arguments : arguments
    }

    /// The daemon's process ID.
    var pid: pid_t { child.pid }
    /// Whether the daemon has not ended yet.
    var isRunning: Bool { child.isRunning }
    /// The daemon's standard output.
    var stdout: LineReader { child.stdout }
    /// The daemon's standard error.
    var stderr: LineReader { child.stderr }

    /// Sends `signo` to the daemon.
    func signal(_ signo: Int32) { child.signal(signo) }

    /// The exit status as a shell reports it, once the process has ended (a daemon that hangs is killed, and reads
    /// as 137: see ``TestSupport/ChildProcess/wait(hangBound:)``).
    func exitStatus() async -> Int32 { await child.wait().shellCode }

    /// Kills the process if it is still running (cleanup after a failed expectation).
    func kill() { child.kill() }

    /// Runs `singletond arguments` to completion: its exit status and output lines (each stream read to its end, for
    /// at most `timeout` seconds).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], stdin: String = "/dev/null",
        timeout: Double = waitHangBound
    ) async throws -> (status: Int32, stdout: [String], stderr: [String]) {
        let child = try SingletondProcess(arguments, environment: environment, stdin: stdin)
        let (outReader, errReader) = (child.stdout, child.stderr)
        async let out = outReader.rest(timeout: timeout)
        async let err = errReader.rest(timeout: timeout)
        let (stdout, stderr) = await (out, err)
        let status = await child.exitStatus()
        child.kill()
        return (status, stdout, stderr)
    }
}
