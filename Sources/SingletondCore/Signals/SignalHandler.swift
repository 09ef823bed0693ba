import Glibc
import SingletonRegistry
import Synchronization
import SystemCalls

/// Turns SIGTERM, SIGINT and SIGHUP into events, on a thread of its own that takes them with `sigtimedwait(2)`.
///
/// The signals must be blocked in every thread of the process: ``Singletond/runProcess(_:)`` calls
/// ``blockSignals()`` on the main thread before any other thread exists, and creates the handler right after, so that
/// a signal is handled from the first moment of the daemon's startup. The handler's thread needs neither Dispatch nor
/// the cooperative pool: a signal ends the daemon even when the runtime cannot start its threads. The signals in
/// ``ignored`` are ignored: SIGPIPE (a client or reader that leaves makes writes fail with EPIPE instead), SIGXFSZ (a
/// file over the size limit makes the output's write fail with EFBIG, counted as a lost line), and the signals the
/// daemon gives no meaning whose default action would end it silently and leave its socket file (SIGUSR1, SIGUSR2,
/// SIGALRM, SIGVTALRM, SIGIO, SIGPWR). The first SIGTERM or SIGINT arms the handler's deadline
/// (``armDeadline(after:)``) at the stop timeout and a second, then calls the handler set with ``onTermination(_:)``
/// on the handler's thread, then arrives in ``terminations``; a second one exits at once with
/// 128 + the signal number, for when a startup or a graceful shutdown hangs. SIGHUP calls the handler set with
/// ``onHangUp(_:)``, on the handler's thread, and does nothing before one is set.
package final class SignalHandler: Sendable {
    private let hangUp = SanitizerVisibleMutex<(@Sendable () -> Void)?>(nil)
    /// What the first SIGTERM or SIGINT runs on the handler's thread, and that signal when it came before one was set.
    private let termination = SanitizerVisibleMutex<(handler: (@Sendable (Int32) -> Void)?, pending: Int32?)>(
        (nil, nil))
    private let terminationCount = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)
    /// When the handler's thread ends the process, if it has not ended by then.
    private let deadline = SanitizerVisibleMutex<ContinuousClock.Instant?>(nil)
    /// The handler's thread; set once it started.
    private let thread = SanitizerVisibleMutex<pthread_t?>(nil)

    /// The first SIGTERM or SIGINT, by number; it buffers the signal until somebody reads it.
    package let terminations: AsyncStream<Int32>

    /// The signals the handler takes.
    static let handled = [SIGTERM, SIGINT, SIGHUP]

    /// The signal that wakes the handler's thread to look at its deadline again; sent to that thread only, and
    /// blocked there. Sent to the process, it is ignored like the others in ``ignored``.
    static let wake = SIGUSR2

    /// The signals the daemon ignores.
    package static let ignored = [SIGPIPE, SIGXFSZ, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGIO, SIGPWR]

    /// How much longer than the stop timeout the handler's thread waits after the first SIGTERM or SIGINT: the
    /// daemon's own stop deadline, on the cooperative pool, says so first when the runtime still runs.
    static let deadlineMargin = Duration.seconds(1)

    /// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread; the threads it starts afterwards inherit the block.
    ///
    /// Call it on the main thread before any other thread exists. A thread that does not block a signal could take
    /// it before the handler's thread, and end the process with the signal's default action.
    package static func blockSignals() {
        System.blockSignals(handled)
    }

    /// Starts the handler's thread; a shutdown that a first SIGTERM or SIGINT started ends the process with status 1
    /// after `stopTimeout` and ``deadlineMargin``.
    ///
    /// - Throws: the error of `pthread_create(3)` when the system refuses the thread.
    package init(stopTimeout: Duration) throws(Errno) {
        let (terminations, terminated) = AsyncStream.makeStream(of: Int32.self)
        self.terminations = terminations
        for signo in Self.ignored { System.ignoreSignal(signo) }
        // The thread reads the registry as the starting task does (its override scope, in a test).
        let started = try withEscapedSingletons { escaped throws(Errno) in
            try System.startThread(named: "singletond-sig") { [self] in
                escaped.yield { run(stopTimeout: stopTimeout, terminated: terminated) }
            }
        }
        thread.withLock { $0 = started }
    }

    /// Whether a SIGTERM or SIGINT has arrived.
    package var terminationRequested: Bool { terminationCount.load(ordering: .relaxed) > 0 }

    /// Makes the first SIGTERM or SIGINT call `handler` with its number on the handler's thread, after the handler's
    /// deadline is armed and before ``terminations`` has it: what must happen at once however busy the cooperative
    /// pool is (the log line, `STOPPING=1`). A signal that came before calls it at once, on the caller's thread.
    package func onTermination(_ handler: @escaping @Sendable (Int32) -> Void) {
        let pending = termination.withLock { state -> Int32? in
            state.handler = handler
            defer { state.pending = nil }
            return state.pending
        }
        if let pending { handler(pending) }
    }

    /// Makes SIGHUP call `handler`, on the handler's thread.
    package func onHangUp(_ handler: @escaping @Sendable () -> Void) {
        hangUp.withLock { $0 = handler }
    }

    /// Ends the process with status 1 after `timeout` from now unless it ends first, or an earlier deadline is
    /// armed: for a shutdown that must not hang, whether or not the runtime still runs.
    package func armDeadline(after timeout: Duration) {
        let end = ContinuousClock.now + timeout
        deadline.withLock { $0 = min($0 ?? end, end) }
        if let thread = thread.withLock({ $0 }) { System.pthreadKill(thread, Self.wake) }
    }

    /// Stops handling signals: later ones stay blocked and are dropped, and no deadline ends the process.
    package func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// The handler's thread: takes each signal as it comes, and ends the process at the deadline.
    private func run(stopTimeout: Duration, terminated: AsyncStream<Int32>.Continuation) {
        System.blockSignals([Self.wake])
        while true {
            let end = deadline.withLock { $0 }
            guard let signo = System.sigtimedwait(Self.handled + [Self.wake], timeout: end.map { $0 - .now }) else {
                guard !cancelled.load(ordering: .relaxed) else {
                    deadline.withLock { $0 = nil }
                    continue
                }
                let line = "singletond: the daemon did not end in time and does not answer; exiting now\n"
                _ = try? System.writeAll(2, Array(line.utf8))
                System.exitImmediately(1)
            }
            guard !cancelled.load(ordering: .relaxed) else { continue }
            switch signo {
            case SIGHUP:
                hangUp.withLock { $0 }?()
            case SIGTERM, SIGINT:
                let n = terminationCount.wrappingAdd(1, ordering: .relaxed).newValue
                if n > 1 { System.exitImmediately(128 + signo) }
                let end = ContinuousClock.now + stopTimeout + Self.deadlineMargin
                deadline.withLock { $0 = min($0 ?? end, end) }
                let handler = termination.withLock { state in
                    if state.handler == nil { state.pending = signo }
                    return state.handler
                }
                handler?(signo)
                terminated.yield(signo)
                terminated.finish()
            default:
                break
            }
        }
    }

    /// `SIGTERM`, `SIGINT`, `SIGHUP` or `signal N`.
    package static func name(of signo: Int32) -> String {
        switch signo {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "signal \(signo)"
        }
    }
}
