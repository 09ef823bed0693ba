import GNSSLocation
import GNSSProtocol
import SingletonRegistry

/// Answers control requests from the registry: the daemon's ``ControlServer/Handler``.
package struct ControlResponder: Sendable {
    /// How replies name the daemon's source: the device name of its reports (`tcp://HOST:PORT`, `demo`, a path),
    /// in the `fix` reply's TPV and the status.
    package var device: String
    /// The length of a survey asked for without one.
    package var defaultSurveySeconds: Double
    /// Where results and client events are logged.
    package var logger: LogWriter
    /// The server, for the client counts in the status.
    package var server: ControlServer
    /// The gpsd-protocol listener's service, for its counts in the status; `nil` without `--listen`.
    package var listener: GPSDListenerService?

    /// Creates a responder.
    package init(
        device: String, defaultSurveySeconds: Double, logger: LogWriter, server: ControlServer,
        listener: GPSDListenerService? = nil
    ) {
        self.device = device
        self.defaultSurveySeconds = defaultSurveySeconds
        self.logger = logger
        self.server = server
        self.listener = listener
    }

    /// Handles one request.
    package func respond(to request: ControlRequest, from requester: ControlRequester) async {
        switch request {
        case .status:
            var report = await StatusReport.take(device: device, clients: (server.clientCount, server.watcherCount))
            report.listener = listener?.listener?.statistics
            requester.send(report.jsonLine)
        case .fix:
            let fix = await appSingletons.locationManager.untrackedLastFix
            var line: [UInt8] = []
            GPSDJSONWriter.appendTPV(fix ?? Fix(), device: device, to: &line)
            requester.send(line)
        case .watch(let enable):
            requester.setWatching(enable)
            var writer = JSONObjectWriter()
            writer.string("class", "WATCH")
            writer.bool("enable", enable)
            requester.send(writer.finish())
        case .survey(let seconds):
            await survey(seconds: seconds ?? defaultSurveySeconds, requester: requester)
        case .cancel:
            let manager = await appSingletons.longTaskManager
            let state = await manager.state
            await manager.cancel()
            var writer = JSONObjectWriter()
            writer.string("class", "CANCEL")
            writer.bool("cancelled", state.isRunning)
            if case .running(let name, _) = state { writer.string("task", name) }
            if state.isRunning {
                logLimited("cancelled a running job", "control: client \(requester.id) cancelled \(state)")
            }
            requester.send(writer.finish())
        }
    }

    /// Logs `line` if it is the first of its `kind` (what clients did, in the past tense), or a count of the kind
    /// once a minute, so that a client looping on a request does not flood the log.
    private func logLimited(_ kind: String, _ line: String) {
        logger.log(.info, repeating: "control: \(kind)", line) { "control: \($0) more clients \(kind)" }
    }

    /// The refusal of a survey while another job runs: what runs, how long it has left, and what the client can do.
    static func busyMessage(name: String, parameters: any Hashable & Sendable, progress: Double) -> String {
        guard let survey = parameters as? SurveyJob.Parameters else {
            return "\(LongTaskError.busy(name: name, parameters: parameters, progress: progress)); try again later"
        }
        let left = Int((survey.seconds * (1 - progress)).rounded(.up))
        return "a survey of \(survey) is running, about \(left) s left: ask for the same survey to join it, "
            + "or cancel it first"
    }

    /// Runs a survey, or joins the same survey if it runs, streaming `PROGRESS` lines to the client, then sends the
    /// `SURVEY` result. A survey of other parameters while one runs is refused with an `ERROR` naming the running one;
    /// the server cancels the request when the client leaves, and a survey nobody awaits any more is cancelled.
    @RegistryActor
    private func survey(seconds: Double, requester: ControlRequester) async {
        let manager = appSingletons.longTaskManager
        let job = SurveyJob.make(seconds: seconds, logger: logger)
        logLimited("asked for a survey", "control: client \(requester.id) asks for a survey of \(seconds) s")
        // The refusal is decided before subscribing, and the run is admitted in the same turn of the actor (a call on
        // the actor it is isolated to does not suspend), so every running "survey" state that follows is the run
        // this client started or joined.
        if case .busy(let name, let parameters, let fraction) = manager.refusal(of: job, whenBusy: .joinOrRefuse) {
            requester.send(
                JSONObjectWriter.error(Self.busyMessage(name: name, parameters: parameters, progress: fraction)))
            logLimited(
                "refused a survey while another ran",
                "control: client \(requester.id) refused: a survey of other parameters runs")
            return
        }
        var filter = SurveyProgressFilter(cancelledRunWindsDown: manager.runningJobIsCancelled)
        let changes = manager.stateChanges()
        // Forwards the survey's progress until it leaves the running state, so that every PROGRESS line goes out
        // before the result.
        let progress = Task {
            for await state in changes {
                switch filter.verdict(on: state) {
                case .skip: continue
                case .end: return
                case .forward(let fraction):
                    var writer = JSONObjectWriter()
                    writer.string("class", "PROGRESS")
                    writer.string("task", SurveyJob.name)
                    writer.number("progress", fraction, decimals: 3)
                    requester.send(writer.finish())
                }
            }
        }
        do {
            let result = try await manager.run(job, whenBusy: .joinOrRefuse)
            await progress.value
            requester.send(result.jsonLine)
        } catch {
            progress.cancel()
            let message =
                if error is CancellationError {
                    Task.isCancelled ? "the request was cancelled" : "the survey was cancelled before it started"
                } else {
                    "the survey failed: \(error)"
                }
            requester.send(JSONObjectWriter.error(message))
        }
    }
}
