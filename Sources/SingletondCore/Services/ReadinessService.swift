import SingletonRegistry
import SystemCalls

/// The daemon becoming ready, the last part to start: the ``ControlService``'s server begins answering, systemd
/// hears that the daemon is ready, and the watchdog pings begin. The first to stop: the control server accepts no
/// new client during the shutdown. (The control server itself is the ``ControlService``'s, bound first and closed
/// last.)
package final class ReadinessService: SingletondService {
    private let control: ControlService
    private let responder: @Sendable (ControlServer) -> ControlResponder
    private let readyLine: String
    private let environment: [String: String]
    private let notify: SDNotify
    private let logger: LogWriter
    private let watchdog = StartedValue<Task<Void, Never>>("the watchdog")

    package init(
        control: ControlService, responder: @escaping @Sendable (ControlServer) -> ControlResponder,
        readyLine: String, environment: [String: String], notify: SDNotify, logger: LogWriter
    ) {
        self.control = control
        self.responder = responder
        self.readyLine = readyLine
        self.environment = environment
        self.notify = notify
        self.logger = logger
    }

    package func start() async throws(SingletondStartError) {
        let server = control.server
        let responder = responder(server)
        do throws(Errno) {
            try server.start { request, requester in await responder.respond(to: request, from: requester) }
        } catch {
            throw SingletondStartError("control socket: cannot start its thread: \(error)")
        }
        notify.ready(status: await StatusReport.take(device: responder.device, clients: (0, 0)).summary)
        logger.info(readyLine)
        let notify = notify
        if let interval = Watchdog.interval(environment: environment, processID: System.processID()) {
            logger.debug("watchdog: pinging systemd every \(interval)")
            watchdog.set(
                Task {
                    let clock = await appSingletons.clock
                    await Watchdog.run(every: interval, notify: notify, clock: clock)
                })
        }
    }

    package func shutdown() async {
        control.server.stopAccepting()
        watchdog.ifStarted?.cancel()
    }
}
