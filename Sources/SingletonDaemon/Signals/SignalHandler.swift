import SingletonRegistry
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Turns SIGTERM, SIGINT and SIGHUP into callbacks, with Dispatch signal sources rather than signal handlers.
///
/// The signals' default actions are replaced by "ignore" before the sources are made, so none can kill the
/// process in between; SIGPIPE is ignored too (a client or reader that leaves makes writes fail with EPIPE
/// instead). The first SIGTERM or SIGINT calls `terminate`; a second one exits at once with 128 + the signal
/// number, for when a graceful shutdown hangs.
public final class SignalHandler: Sendable {
    private let sources = ObservedMutex<[any DispatchSourceSignal]>([])
    private let terminations = Atomic<Int>(0)

    /// Installs the sources; `terminate` gets the signal number, `hangUp` is called for SIGHUP.
    public init(
        terminate: @escaping @Sendable (Int32) -> Void, hangUp: @escaping @Sendable () -> Void
    ) {
        let queue = DispatchQueue(label: "singletond.signals")
        signal(SIGPIPE, SIG_IGN)
        for signo in [SIGTERM, SIGINT, SIGHUP] { signal(signo, SIG_IGN) }
        sources.withLock { sources in
            for signo in [SIGTERM, SIGINT, SIGHUP] {
                let source = DispatchSource.makeSignalSource(signal: signo, queue: queue)
                if signo == SIGHUP {
                    source.setEventHandler { hangUp() }
                } else {
                    source.setEventHandler {
                        let n = self.terminations.wrappingAdd(1, ordering: .relaxed).newValue
                        if n > 1 { _exit(128 + signo) }
                        terminate(signo)
                    }
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Cancels the sources; the signals stay ignored.
    public func cancel() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
        }
    }

    /// `SIGTERM`, `SIGINT`, `SIGHUP` or `signal N`.
    public static func name(of signo: Int32) -> String {
        switch signo {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "signal \(signo)"
        }
    }
}
