import Foundation
import Testing

/// The built `singletond` binary run as a child process, with its standard output and error as line readers.
final class DaemonProcess: Sendable {
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
    /// as systemd sets it when standard error is the journal.
    init(
        _ arguments: [String], environment: [String: String] = [:], journal: Bool = false, stdin: String = "/dev/null"
    ) throws {
        guard let binary = Self.binary else {
            Issue.record("singletond is not built next to the test bundle; run `swift build` first")
            throw CocoaError(.fileNoSuchFile)
        }
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM", "XDG_RUNTIME_DIR"] {
            env[key] = nil
        }
        env.merge(environment) { $1 }
        if journal { env["JOURNAL_STREAM"] = "$STDERR_IDENTITY" }
        child = try ChildProcess(binary, arguments, environment: env, stdin: stdin)
    }

    /// The daemon's process ID.
    var pid: pid_t { child.pid }
    var stdout: LineReader { child.stdout }
    var stderr: LineReader { child.stderr }

    /// Sends `signo` to the daemon.
    func signal(_ signo: Int32) { child.signal(signo) }

    /// The exit status once the process has ended, or `nil` if it did not within `timeout` seconds.
    func exitStatus(timeout: Double = 10) async -> Int32? { await child.exitStatus(timeout: timeout) }

    /// Kills the process if it is still running (cleanup after a failed expectation).
    func kill() { child.kill() }

    /// Runs `singletond arguments` to completion: its exit status and output lines.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], stdin: String = "/dev/null", timeout: Double = 30
    ) async throws -> (status: Int32?, stdout: [String], stderr: [String]) {
        let child = try DaemonProcess(arguments, environment: environment, stdin: stdin)
        let (outReader, errReader) = (child.stdout, child.stderr)
        async let out = outReader.rest(timeout: timeout)
        async let err = errReader.rest(timeout: timeout)
        let (stdout, stderr) = await (out, err)
        let status = await child.exitStatus(timeout: timeout)
        child.kill()
        return (status, stdout, stderr)
    }
}
