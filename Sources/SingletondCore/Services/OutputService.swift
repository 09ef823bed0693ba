import SingletonRegistry

/// The TPV output: opened first, so that every fix has somewhere to go, and closed last but for the socket; SIGHUP
/// reopens it.
package final class OutputService: SingletondService {
    private let path: String
    private let logger: LogWriter
    private let signals: SignalHandler
    private let opened = StartedValue<FixOutput>("the output")

    package init(path: String, logger: LogWriter, signals: SignalHandler) {
        self.path = path
        self.logger = logger
        self.signals = signals
    }

    /// The open output; only after ``start()``.
    package var output: FixOutput { opened.value }

    package func start() async throws(SingletondStartError) {
        let output: FixOutput
        do {
            output = try FixOutput(path: path, logger: logger, clock: await appSingletons.clock)
        } catch {
            throw SingletondStartError("\(error)")
        }
        opened.set(output)
        let logger = logger
        signals.onHangUp {
            logger.info("SIGHUP: reopening the output")
            output.reopen()
        }
    }

    package func shutdown() async {
        await opened.ifStarted?.close()
    }
}
