import Foundation
import Glibc
import SingletonRegistry

/// How a ``ChildProcess`` ended, once it has: reaped by a thread of its own, waited for by any number of tasks.
///
/// The reaper first waits with `WNOWAIT`, which leaves the ended child a zombie, and reaps it under the same lock
/// that ``signalIfRunning(_:_:group:)`` takes: while the status is unknown the child's pid (and so its process
/// group's ID) cannot have been handed to another process, so a late kill never hits a stranger.
final class ExitRecord: Sendable {
    private let state = SanitizerVisibleMutex<
        (status: ProcessExit?, waiters: [CheckedContinuation<ProcessExit, Never>])
    >(
        (nil, []))

    /// Starts the thread that waits for `pid` to end and records how it did.
    init(reaping pid: pid_t) {
        Thread { [self] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            let waiters = state.withLock { state in
                var raw: Int32 = 0
                while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
                state.status = ProcessExit(waitStatus: raw)
                defer { state.waiters = [] }
                return (state.status!, state.waiters)
            }
            for waiter in waiters.1 { waiter.resume(returning: waiters.0) }
        }.start()
    }

    /// How the child ended, or `nil` while it runs.
    var status: ProcessExit? { state.withLock { $0.status } }

    /// Waits for the child to end (however long that takes: the caller bounds it by killing the child).
    func ended() async -> ProcessExit {
        await withCheckedContinuation { continuation in
            let status = state.withLock { state in
                if state.status == nil { state.waiters.append(continuation) }
                return state.status
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    /// Sends `signal` to `pid` (to its whole process group with `group`) unless it has ended; whether it was sent.
    @discardableResult
    func signalIfRunning(_ pid: pid_t, _ signal: Int32, group: Bool = false) -> Bool {
        state.withLock { state in
            guard state.status == nil else { return false }
            return Glibc.kill(group ? -pid : pid, signal) == 0
        }
    }
}
