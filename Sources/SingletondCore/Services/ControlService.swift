import SingletonRegistry
import SystemCalls

/// The service that owns the control socket's ``ControlServer``: bound at the start (in its private directory, when
/// it is the default one) but not yet serving, which the ``ReadinessService`` begins last; closed, with its clients,
/// after the registry's managers have ended, so that a cancelled survey still sends its partial result.
package final class ControlService: SingletondService {
    /// The socket's path.
    package let path: String
    private let isDefaultPath: Bool
    private let environment: [String: String]
    private let logger: LogWriter
    private let bound = StartedValue<ControlServer>("the control socket")

    package init(option: String?, environment: [String: String], logger: LogWriter) {
        path = ControlPath.resolve(option, environment: environment, userID: System.userID())
        isDefaultPath = option == nil
        self.environment = environment
        self.logger = logger
    }

    /// The bound server; only after ``start()``.
    package var server: ControlServer { bound.value }

    package func start() async throws(SingletondStartError) {
        if isDefaultPath,
            let directory = ControlPath.privateDirectory(environment: environment, userID: System.userID()),
            let problem = ControlPath.checkPrivate(directory, create: true)
        {
            throw SingletondStartError("control socket: \(problem)")
        }
        do {
            let server = try ControlServer.bind(
                path: path, logger: logger, clock: await appSingletons.clock)
            bound.set(server)
        } catch {
            throw SingletondStartError("\(error)")
        }
    }

    package func shutdown() async {
        await bound.ifStarted?.stop()
    }
}
