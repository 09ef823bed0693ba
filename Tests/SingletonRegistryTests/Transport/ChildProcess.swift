import Dispatch
import Foundation
import GNSSLocation
import Glibc
import SingletonRegistry
import Synchronization
import Testing

/// A child process spawned with a clean signal mask, in a process group of its own.
///
/// Foundation's `Process` passes on the signal mask of the thread that launches it, and test threads block
/// SIGTERM; gpsfake and gpspipe launched that way cannot be terminated. The process group lets ``waitForExit(timeout:)``
/// kill a tool together with the helpers it started (gpsfake's gpsd).
final class ChildProcess: Sendable {
    let pid: pid_t
    /// The command line, for messages.
    let commandLine: String
    private let status = ObservedMutex<Int32?>(nil)
    /// The child's own `$TMPDIR`, removed with this object.
    private let temporaryDirectory: String?

    /// Starts `path` with `arguments`; standard output goes to `outputPath` (or /dev/null). With
    /// `ownTemporaryDirectory`, the child's `$TMPDIR` is a new empty directory, which also keeps its standard error
    /// (see ``errorOutput``); otherwise standard error goes to /dev/null.
    init(_ path: String, _ arguments: [String], outputPath: String? = nil, ownTemporaryDirectory: Bool = false) throws {
        var environment = ProcessInfo.processInfo.environment
        if ownTemporaryDirectory {
            var template = Array("/tmp/singleton-child-XXXXXX".utf8CString)
            let made: UnsafeMutablePointer<CChar>? = template.withUnsafeMutableBufferPointer {
                mkdtemp($0.baseAddress!)
            }
            temporaryDirectory = String(cString: try #require(made, "mkdtemp: \(SourceError.systemMessage(errno))"))
            environment["TMPDIR"] = temporaryDirectory
        } else {
            temporaryDirectory = nil
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(
            &actions, 2, temporaryDirectory.map { "\($0)/stderr" } ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try Self.closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGCHLD, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        try #require(result == 0, "posix_spawn \(path): \(SourceError.systemMessage(result))")
        self.pid = pid
        commandLine = ([path] + arguments).joined(separator: " ")
    }

    /// Adds "close every descriptor from 3 up" to `actions`: the child keeps only standard input, output and error.
    /// Other tests hold descriptors open meanwhile (a FIFO's writer, a pseudo-terminal's master, a peer's socket),
    /// and a child that inherited one would keep its far end from ever seeing the end. glibc 2.34 has
    /// `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not show, so it is looked up.
    static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) throws {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        let symbol = try #require(
            dlsym(nil, "posix_spawn_file_actions_addclosefrom_np"), "posix_spawn needs glibc 2.34 or later here")
        try #require(unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3) == 0)
    }

    deinit {
        if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) }
    }

    /// What the child wrote to standard error so far, when it has its own temporary directory (where it is kept).
    var errorOutput: String {
        guard let temporaryDirectory else { return "" }
        return (try? String(contentsOfFile: "\(temporaryDirectory)/stderr", encoding: .utf8)) ?? ""
    }

    /// Whether the child has not exited yet (reaps it if it has).
    var isRunning: Bool {
        status.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            let reaped = waitpid(pid, &raw, WNOHANG)
            if reaped == pid { status = raw }
            return reaped == 0
        }
    }

    /// The raw `waitpid` status once the child has been reaped.
    var exitStatus: Int32? { status.withLock { $0 } }

    /// Sends SIGTERM unless the child has already exited.
    func terminate() {
        if isRunning { kill(pid, SIGTERM) }
    }

    /// Waits for the child to exit, off the cooperative pool; a child still running after `timeout` seconds is
    /// killed with its process group (its ``exitStatus`` then says SIGKILL), so that no test hangs on it.
    ///
    /// gpsfake 3.22 needs this: when SIGTERM lands while it polls its gpsd, its handler's own poll cannot take the lock
    /// Python's `Popen.poll` holds, sees the (already dead) gpsd as running, and loops for ever.
    func waitForExit(timeout: Double = 15) async {
        let (group, commandLine) = (pid, commandLine)
        let exited = ObservedMutex(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            exited.withLock { exited in
                guard !exited else { return }
                print("ChildProcess: \(commandLine) still running after \(timeout) s; killing its process group")
                kill(-group, SIGKILL)
            }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [self] in
                var raw: Int32 = 0
                var reaped: pid_t
                repeat { reaped = waitpid(pid, &raw, 0) } while reaped < 0 && errno == EINTR
                exited.withLock { $0 = true }
                // Otherwise `isRunning` reaped it first and keeps the status.
                if reaped == pid { status.withLock { $0 = raw } }
                continuation.resume()
            }
        }
    }

}
