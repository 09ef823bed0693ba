import Dispatch
import Glibc
import SingletonRegistry
import Synchronization
import SystemCalls

/// Turns SIGTERM, SIGINT and SIGHUP into events, with Dispatch signal sources rather than signal handlers.
///
/// The signals must be blocked in every thread of the process: ``Singletond/runProcess(_:)`` calls
/// ``blockSignals()`` on the main thread before any other thread exists, and creates the handler right after, so that
/// a signal is handled from the first moment of the daemon's startup. The signals in ``ignored`` are ignored:
/// SIGPIPE (a client or reader that leaves makes writes fail with EPIPE instead), SIGXFSZ (a file over the size
/// limit makes the output's write fail with EFBIG, counted as a lost line), and the signals the daemon gives no
/// meaning whose default action would end it silently and leave its socket file (SIGUSR1, SIGUSR2, SIGALRM,
/// SIGVTALRM, SIGIO, SIGPWR). The first SIGTERM or SIGINT arrives in ``terminations``; a second one
/// exits at once with 128 + the signal number, for when a startup or a graceful shutdown hangs. SIGHUP calls the
/// handler set with ``onHangUp(_:)``, and does nothing before one is set.
package final class SignalHandler: Sendable {
    private let sources = SanitizerVisibleMutex<[any DispatchSourceSignal]>([])
    private let hangUp = SanitizerVisibleMutex<(@Sendable () -> Void)?>(nil)
    private let terminationCount = Atomic<Int>(0)

    /// The first SIGTERM or SIGINT, by number; it buffers the signal until somebody reads it.
    package let terminations: AsyncStream<Int32>

    /// The signals the handler takes.
    static let handled = [SIGTERM, SIGINT, SIGHUP]

    /// The signals the daemon ignores.
    package static let ignored = [SIGPIPE, SIGXFSZ, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGIO, SIGPWR]

    /// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread; the threads it starts afterwards inherit the block.
    ///
    /// Call it on the main thread before any other thread exists, and keep that thread out of `dispatchMain()`
    /// (which waits in `sigsuspend(2)` with an empty mask). On Linux a Dispatch signal source reads a `signalfd`,
    /// which receives a signal only while no thread can take it: a thread that does not block the signal takes it
    /// first, and Dispatch's fallback re-sends it to the thread that registered the source, which may no longer be
    /// the one reading, so the signal is lost. Blocked, a signal that arrives before the sources exist waits for
    /// them instead of killing the process.
    package static func blockSignals() {
        System.blockSignals(handled)
    }

    /// Installs the sources.
    package init() {
        let (terminations, terminated) = AsyncStream.makeStream(of: Int32.self)
        self.terminations = terminations
        let queue = DispatchQueue(label: "singletond.signals")
        for signo in Self.ignored { System.ignoreSignal(signo) }
        sources.withLock { sources in
            for signo in Self.handled {
                let source = DispatchSource.makeSignalSource(signal: signo, queue: queue)
                if signo == SIGHUP {
                    source.setEventHandler { self.hangUp.withLock { $0 }?() }
                } else {
                    source.setEventHandler {
                        let n = self.terminationCount.wrappingAdd(1, ordering: .relaxed).newValue
                        if n > 1 { System.exitImmediately(128 + signo) }
                        terminated.yield(signo)
                        terminated.finish()
                    }
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Whether a SIGTERM or SIGINT has arrived.
    package var terminationRequested: Bool { terminationCount.load(ordering: .relaxed) > 0 }

    /// Makes SIGHUP call `handler`, on the handler's queue.
    package func onHangUp(_ handler: @escaping @Sendable () -> Void) {
        hangUp.withLock { $0 = handler }
    }

    /// Cancels the sources; the signals stay blocked.
    package func cancel() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
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
