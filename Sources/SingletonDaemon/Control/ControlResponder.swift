import GNSSLocation
import GNSSProtocol
import SingletonRegistry

/// Answers control requests from the registry: the daemon's ``ControlServer/Handler``.
public struct ControlResponder: Sendable {
    /// How the status names the daemon's source.
    public var source: String
    /// The length of a survey asked for without one.
    public var defaultSurveySeconds: Double
    /// Where results and client events are logged.
    public var logger: Logger
    /// The server, for the client counts in the status.
    public var server: ControlServer

    /// Creates a responder.
    public init(source: String, defaultSurveySeconds: Double, logger: Logger, server: ControlServer) {
        self.source = source
        self.defaultSurveySeconds = defaultSurveySeconds
        self.logger = logger
        self.server = server
    }

    /// Handles one request.
    public func respond(to request: ControlRequest, on connection: ControlConnection) async {
        switch request {
        case .status:
            let report = await StatusReport.take(
                source: source, clients: (server.clientCount, server.watcherCount))
            connection.send(report.jsonLine)
        case .fix:
            let fix = await appSingletons.locationManager.lastFix
            var line: [UInt8] = []
            GPSDJSONWriter.appendTPV(fix ?? Fix(), to: &line)
            connection.send(line)
        case .watch(let enable):
            connection.setWatching(enable)
            var writer = JSONObjectWriter()
            writer.string("class", "WATCH")
            writer.bool("enable", enable)
            connection.send(writer.finish())
        case .survey(let seconds):
            await survey(seconds: seconds ?? defaultSurveySeconds, connection: connection)
        case .cancel:
            let manager = await appSingletons.longTaskManager
            let state = await manager.state
            await manager.cancel()
            var writer = JSONObjectWriter()
            writer.string("class", "CANCEL")
            writer.bool("cancelled", state.isRunning)
            if case .running(let name, _) = state { writer.string("task", name) }
            connection.send(writer.finish())
            if state.isRunning { logger.info("control: client \(connection.id) cancelled \(state)") }
        }
    }

    /// Runs (or joins) a survey, streaming `PROGRESS` lines to the client, then sends the `SURVEY` result.
    private func survey(seconds: Double, connection: ControlConnection) async {
        let manager = await appSingletons.longTaskManager
        let changes = await manager.stateChanges()
        // Forwards the survey's progress until it leaves the running state, so that every PROGRESS line goes out
        // before the result.
        let progress = Task {
            var seenRunning = false
            for await state in changes {
                guard case .running(let name, let fraction) = state, name == SurveyJob.name else {
                    if seenRunning { return }
                    continue
                }
                seenRunning = true
                var writer = JSONObjectWriter()
                writer.string("class", "PROGRESS")
                writer.string("task", name)
                writer.number("progress", fraction, decimals: 3)
                connection.send(writer.finish())
            }
        }
        logger.info("control: client \(connection.id) asks for a survey of \(seconds) s")
        do {
            let result = try await manager.run(SurveyJob.make(seconds: seconds, logger: logger))
            await progress.value
            connection.send(result.jsonLine)
        } catch {
            progress.cancel()
            let message =
                error is CancellationError
                ? "the survey was cancelled before it started" : "the survey failed: \(error)"
            connection.send(JSONObjectWriter.error(message))
        }
    }
}
