import Glibc

/// How a child process ended: it exited with a code, or a signal ended it (Swift Testing has an `ExitStatus` of its
/// own, for exit tests).
///
/// ``ChildProcess/wait(hangBound:)`` returns one. A child that hung past the bound and was killed ends as
/// `.signalled(SIGKILL)`.
package enum ProcessExit: Equatable, Sendable, CustomStringConvertible {
    /// The child called `exit(code)` (or returned `code` from `main`).
    case exited(Int32)
    /// Signal `signal` ended the child.
    case signalled(Int32)

    /// Decodes a raw `waitpid` status of a child that has ended.
    init(waitStatus status: Int32) {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift's Glibc module does not show (they are macros).
        self = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    }

    /// The status as a shell's `$?` reports it: the exit code, or 128 + the signal.
    package var shellCode: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let signal): 128 + signal
        }
    }

    package var description: String {
        switch self {
        case .exited(let code): "exited with \(code)"
        case .signalled(let signal): "ended by signal \(signal) (\(String(cString: strsignal(signal))))"
        }
    }
}
