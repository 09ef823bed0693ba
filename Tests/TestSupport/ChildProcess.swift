import Dispatch
import Foundation
import Glibc
import Testing

/// A child process (a gpsd tool, the daemon's binary) started with `posix_spawn` the way a shell starts one: no
/// signal blocked, default dispositions, in a process group of its own, holding only standard input, output and
/// error.
///
/// Foundation's `Process` hands the test runner's signal mask (SIGTERM, SIGINT, SIGHUP blocked) down to its
/// children, so they would not die on those signals, and tools such as gpsfake would outlive the test. The process
/// group lets ``kill()`` and a hung ``wait(hangBound:)`` end a tool together with the helpers it started (gpsfake's
/// gpsd). A thread of its own reaps the child as soon as it ends, so none is left a zombie. Releasing the object
/// kills the group if the child still runs.
package final class ChildProcess: Sendable {
    /// Where the child's standard output or error goes.
    package enum Output: Sendable {
        /// To /dev/null.
        case discard
        /// Into a pipe the test reads with a ``LineReader`` (``stdout``, ``stderr``). Read it: a child that fills
        /// a pipe nobody reads blocks.
        case pipe
        /// Into a file in a directory of the child's own, read back at any time with ``errorOutput`` (standard
        /// error) or ``keptOutput`` (standard output), for failure messages.
        case kept
    }

    /// The bound of ``wait(hangBound:)`` unless the caller names one: long enough for any healthy child on a
    /// loaded machine, so that it only ever ends a hang.
    package static let defaultHangBound: Duration = .seconds(60)

    /// What gpsfake 3.22 gets to exit after SIGTERM before its group is killed.
    ///
    /// When SIGTERM lands while gpsfake polls its gpsd, its handler's own poll cannot take the lock Python's
    /// `Popen.poll` holds, sees the (already dead) gpsd as running, and loops for ever. The gpsd is gone by then, so
    /// killing the group loses nothing the test waits for; the bound only keeps each such hang short.
    package static let gpsfakeTerminationBound: Duration = .seconds(15)

    /// An environment value replaced with ``stderrIdentity`` (to set `$JOURNAL_STREAM` as systemd does).
    package static let stderrIdentityPlaceholder = "$STDERR_IDENTITY"

    /// The child's process ID, which is also its process group's ID.
    package let pid: pid_t
    /// The command line, for messages.
    package let commandLine: String
    /// The child's standard output, when it is ``Output/pipe``; otherwise a reader at its end.
    package let stdout: LineReader
    /// The child's standard error, when it is ``Output/pipe``; otherwise a reader at its end.
    package let stderr: LineReader
    /// The device and inode of the child's standard error pipe as `$JOURNAL_STREAM` names them ("DEV:INODE"), when
    /// standard error is ``Output/pipe``.
    package let stderrIdentity: String?
    /// The child's `$TMPDIR`, when it was started with `ownTemporaryDirectory`.
    package let temporaryDirectory: String?
    /// The child's own directory: its `$TMPDIR` with `ownTemporaryDirectory`, and where ``Output/kept`` output is.
    private let directory: TemporaryDirectory?
    private let exit: ExitRecord

    /// Starts `path` with `arguments` (`path` is not looked up on the `PATH`).
    ///
    /// - Parameters:
    ///   - environment: The child's environment; `nil` passes on the test process's.
    ///   - stdin: The file the child reads as its standard input.
    ///   - stdout: Where its standard output goes.
    ///   - stderr: Where its standard error goes.
    ///   - ownTemporaryDirectory: Whether `$TMPDIR` is a new empty directory, removed with this object. gpsfake
    ///     needs one: it takes an existing `$TMPDIR/gpsfake-PID.sock` for its gpsd being ready, and gpsd leaves
    ///     those behind, so a shared /tmp whose pids have wrapped around holds stale ones.
    package init(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, stdin: String = "/dev/null",
        stdout: Output = .discard, stderr: Output = .discard, ownTemporaryDirectory: Bool = false
    ) throws {
        // Everything that can fail before the pipes and the directory exist, so that a failure leaks neither.
        let closeFrom = try Self.closeFromAction()
        var attributes = try Self.shellLikeAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        let directory = ownTemporaryDirectory || stdout == .kept || stderr == .kept ? TemporaryDirectory() : nil
        var environment = environment ?? ProcessInfo.processInfo.environment
        if ownTemporaryDirectory { environment["TMPDIR"] = directory?.path }
        let outPipe = stdout == .pipe ? try Self.closeOnExecPipe() : nil
        let errPipe = stderr == .pipe ? try Self.closeOnExecPipe() : nil
        let identity = errPipe.map { pipe in
            var info = stat()
            fstat(pipe.write, &info)
            return "\(info.st_dev):\(info.st_ino)"
        }
        for (key, value) in environment where value == Self.stderrIdentityPlaceholder {
            environment[key] = identity
        }
        let commandLine = ([path] + arguments).joined(separator: " ")

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        for (fd, output, pipe, name) in [(1, stdout, outPipe, "stdout"), (2, stderr, errPipe, "stderr")] {
            if let pipe {
                posix_spawn_file_actions_adddup2(&actions, pipe.write, Int32(fd))
            } else {
                let file = output == .kept ? directory?.file(name) ?? "/dev/null" : "/dev/null"
                posix_spawn_file_actions_addopen(&actions, Int32(fd), file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            }
        }
        // Last, after the `dup2`s from the pipes: the child keeps only standard input, output and error.
        try #require(closeFrom(&actions, 3) == 0, "posix_spawn_file_actions_addclosefrom_np failed")

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        for pipe in [outPipe, errPipe].compactMap({ $0 }) { close(pipe.write) }
        if spawned != 0 {
            for pipe in [outPipe, errPipe].compactMap({ $0 }) { close(pipe.read) }
            directory?.remove()
        }
        try #require(spawned == 0, "posix_spawn \(commandLine): \(String(cString: strerror(spawned)))")
        pid = child
        self.commandLine = commandLine
        self.stdout = outPipe.map { LineReader(fd: $0.read) } ?? .ended()
        self.stderr = errPipe.map { LineReader(fd: $0.read) } ?? .ended()
        stderrIdentity = identity
        temporaryDirectory = ownTemporaryDirectory ? directory?.path : nil
        self.directory = directory
        exit = ExitRecord(reaping: child)
    }

    deinit {
        kill()
        directory?.remove()
    }

    /// Whether the child has not ended yet.
    package var isRunning: Bool { exit.status == nil }

    /// How the child ended, or `nil` while it runs.
    package var status: ProcessExit? { exit.status }

    /// What the child wrote to standard error so far: the file of ``Output/kept``, the lines read so far from
    /// ``Output/pipe``, or nothing.
    package var errorOutput: String {
        if let directory, let text = try? String(contentsOfFile: directory.file("stderr"), encoding: .utf8) {
            return text
        }
        return stderr.history.joined(separator: "\n")
    }

    /// What the child wrote to standard output so far, when it is ``Output/kept``.
    package var keptOutput: String {
        directory.flatMap { try? String(contentsOfFile: $0.file("stdout"), encoding: .utf8) } ?? ""
    }

    /// Sends `signo` to the child (not its group), unless it has ended.
    package func signal(_ signo: Int32) {
        exit.signalIfRunning(pid, signo)
    }

    /// Sends SIGTERM to the child, unless it has ended.
    package func terminate() {
        signal(SIGTERM)
    }

    /// Kills the child's whole process group (a tool and the helpers it started), unless the child has ended.
    package func kill() {
        exit.signalIfRunning(pid, SIGKILL, group: true)
    }

    /// Waits for the child to end and returns how it did.
    ///
    /// `hangBound` only catches a hang, never decides a test: a child still running after it is killed with its
    /// process group, the command line is named in the test's output, and the status returned is
    /// `.signalled(SIGKILL)`, which fails a test that expected the child to exit by itself. The wait itself holds
    /// no thread.
    package func wait(hangBound: Duration = defaultHangBound) async -> ProcessExit {
        let (exit, pid, commandLine) = (exit, pid, commandLine)
        let (seconds, attoseconds) = hangBound.components
        let nanoseconds = Int(clamping: seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            if exit.signalIfRunning(pid, SIGKILL, group: true) {
                print("ChildProcess: \(commandLine) was still running after \(hangBound); killed its process group")
            }
        }
        // A cancelled test (its time limit) kills the child, so that the wait ends at once.
        return await withTaskCancellationHandler {
            await exit.ended()
        } onCancel: {
            _ = exit.signalIfRunning(pid, SIGKILL, group: true)
        }
    }

    /// Sends SIGTERM, then waits as ``wait(hangBound:)`` does.
    package func terminateAndWait(hangBound: Duration = defaultHangBound) async -> ProcessExit {
        terminate()
        return await wait(hangBound: hangBound)
    }

    /// A pipe whose two ends are closed on `exec`, so that a child another test spawns meanwhile does not inherit
    /// them and keep the pipe open (`dup2` in the file actions gives this child its own copies without the flag).
    /// Glibc's `pipe2`, which would close the short window before `fcntl`, is not visible to Swift.
    private static func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0, "pipe: \(String(cString: strerror(errno)))")
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// Spawn attributes for a child like a shell's: an empty signal mask, the default disposition of every
    /// standard signal, and a new process group led by the child.
    private static func shellLikeAttributes() throws -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        // The standard signals; glibc keeps 32 and 33 for itself, and the real-time ones are nobody's business here.
        for signo: Int32 in 1...31 where signo != SIGKILL && signo != SIGSTOP { sigaddset(&defaults, signo) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        let flags = posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        try #require(flags == 0, "posix_spawnattr_setflags: \(String(cString: strerror(flags)))")
        return attributes
    }

    /// The file action "close every descriptor from N up" (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34,
    /// which Swift's Glibc module does not show, so it is looked up). Other tests hold descriptors open meanwhile (a
    /// FIFO's writer, a pseudo-terminal's master, a peer's socket), and a child that inherited one would keep its
    /// far end from ever seeing the end.
    private static func closeFromAction() throws -> CloseFrom {
        let symbol = try #require(
            dlsym(nil, "posix_spawn_file_actions_addclosefrom_np"), "posix_spawn needs glibc 2.34 or later here")
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }

    /// `posix_spawn_file_actions_addclosefrom_np`'s type.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
}
