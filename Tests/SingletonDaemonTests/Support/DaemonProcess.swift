import Foundation
import Synchronization
import Testing

/// The built `singletond` binary run as a child process, with its standard output and error as line readers.
final class DaemonProcess {
    /// `singletond` next to the test bundle (`.build/<triple>/debug/`), or `nil` (recorded as an issue).
    static let binary: String? = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // The bundle may be a directory (`X.xctest/...`) on some layouts: walk up to the build directory.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("singletond").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    let process = Process()
    let stdout: LineReader
    let stderr: LineReader
    private let exit = ExitRecord()
    private let stdinPipe = Pipe()

    /// Starts `singletond arguments` with the test environment plus `environment`.
    ///
    /// With `journal`, `$JOURNAL_STREAM` names the device and inode of the pipe that is the child's standard error,
    /// as systemd sets it when standard error is the journal.
    init(_ arguments: [String], environment: [String: String] = [:], journal: Bool = false) throws {
        guard let binary = Self.binary else {
            Issue.record("singletond is not built next to the test bundle; run `swift build` first")
            throw CocoaError(.fileNoSuchFile)
        }
        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM", "XDG_RUNTIME_DIR"] {
            env[key] = nil
        }
        env.merge(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        if journal {
            var info = stat()
            fstat(err.fileHandleForReading.fileDescriptor, &info)
            env["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
        }
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = env
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdinPipe
        stdout = LineReader(fd: out.fileHandleForReading.fileDescriptor)
        stderr = LineReader(fd: err.fileHandleForReading.fileDescriptor)
        let exit = exit
        process.terminationHandler = { process in
            exit.status.withLock { $0 = process.terminationStatus }
            exit.exited.signal()
        }
        try process.run()
        readEnds = (out, err)
    }

    /// Keeps the pipes (and so their descriptors) alive as long as the process object.
    private var readEnds: (Pipe, Pipe)?

    var pid: Int32 { process.processIdentifier }

    /// Sends `signo` to the daemon.
    func signal(_ signo: Int32) {
        _ = Foundation.kill(process.processIdentifier, signo)
    }

    /// The exit status once the process has ended, or `nil` if it did not within `timeout` seconds.
    func exitStatus(timeout: Double = 10) async -> Int32? {
        let exit = exit
        return await blocking {
            guard exit.exited.wait(timeout: .now() + timeout) == .success else { return nil }
            exit.exited.signal()
            return exit.status.withLock { $0 }
        }
    }

    /// Kills the process if it is still running (cleanup after a failed expectation).
    func kill() {
        if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// Runs `singletond arguments` to completion: its exit status and output lines.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Double = 30
    ) async throws -> (status: Int32?, stdout: [String], stderr: [String]) {
        let child = try DaemonProcess(arguments, environment: environment)
        let (outReader, errReader) = (child.stdout, child.stderr)
        async let out = outReader.rest(timeout: timeout)
        async let err = errReader.rest(timeout: timeout)
        let (stdout, stderr) = await (out, err)
        let status = await child.exitStatus(timeout: timeout)
        child.kill()
        return (status, stdout, stderr)
    }
}

/// A child's exit status and the semaphore its termination handler signals.
final class ExitRecord: Sendable {
    let status = Mutex<Int32?>(nil)
    let exited = DispatchSemaphore(value: 0)
}
