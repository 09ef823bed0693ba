import Foundation
import SingletonRegistry
import Synchronization
import Testing

/// A child process started with `posix_spawn` in a process group of its own, with no signal blocked.
///
/// Foundation's `Process` hands the test runner's signal mask (SIGTERM, SIGINT, SIGHUP blocked) down to its
/// children, so they would not die on those signals and tools such as gpsfake outlive the test. This starts the
/// child with an empty mask and default dispositions, like a shell does, and ``kill()`` ends its whole group.
final class ChildProcess: Sendable {
    let pid: pid_t
    let stdout: LineReader
    let stderr: LineReader
    /// The write end of the child's standard error pipe's device and inode, as `$JOURNAL_STREAM` names it.
    let stderrIdentity: String
    private let exit = ExitRecord()

    /// Starts `path` with `arguments` and `environment`; its standard input is the file at `stdin`.
    init(_ path: String, _ arguments: [String], environment: [String: String], stdin: String = "/dev/null") throws {
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        guard pipe(&out) == 0, pipe(&err) == 0 else { throw POSIXError(.EMFILE) }
        // Close-on-exec, so that a child another test spawns later does not inherit these ends and keep the pipes
        // open (the dup2 in the file actions gives this child its own copies without the flag). Glibc's `pipe2`,
        // which would close the short window before this, is not visible to Swift.
        for fd in out + err { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var info = stat()
        fstat(err[1], &info)
        let identity = "\(info.st_dev):\(info.st_ino)"
        stderrIdentity = identity
        let identityEnvironment = environment.map { key, value in
            value == "$STDERR_IDENTITY" ? (key, identity) : (key, value)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        for fd in out + err { posix_spawn_file_actions_addclose(&actions, fd) }
        try Self.closeInheritedDescriptors(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signo in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, signo) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = identityEnvironment.map { strdup("\($0.0)=\($0.1)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        close(out[1])
        close(err[1])
        guard rc == 0 else {
            close(out[0])
            close(err[0])
            throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .ENOENT)
        }
        pid = child
        stdout = LineReader(fd: out[0])
        stderr = LineReader(fd: err[0])
        let exit = exit
        let spawned = child
        Thread {
            var status: Int32 = 0
            while waitpid(spawned, &status, 0) < 0 && errno == EINTR {}
            // WIFEXITED / WEXITSTATUS, else 128 + the signal, as a shell reports it.
            let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            exit.status.withLock { $0 = code }
            exit.exited.signal()
        }.start()
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
        kill()
    }

    /// Sends `signo` to the child.
    func signal(_ signo: Int32) {
        _ = Foundation.kill(pid, signo)
    }

    /// The exit status once the child has ended, or `nil` if it did not within `timeout` seconds.
    func exitStatus(timeout: Double = 10) async -> Int32? {
        let exit = exit
        return await blocking {
            guard exit.exited.wait(timeout: .now() + timeout) == .success else { return nil }
            exit.exited.signal()
            return exit.status.withLock { $0 }
        }
    }

    /// Kills the child's whole process group (a tool and the helpers it started), if the child still runs.
    func kill() {
        if exit.status.withLock({ $0 == nil }) { _ = Foundation.kill(-pid, SIGKILL) }
    }
}

/// A child's exit status and the semaphore its waiter signals.
final class ExitRecord: Sendable {
    let status = ObservedMutex<Int32?>(nil)
    let exited = DispatchSemaphore(value: 0)
}
