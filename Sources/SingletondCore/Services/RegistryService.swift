import GNSSLocation
import GNSSProtocol
import SingletonRegistry

/// The registry's managers: composed into the process-wide container, their state changes logged, their events
/// forwarded to the output, the socket's watchers and the gpsd listener (``ReportForwarder``), and the position
/// source opened.
///
/// Shutting down cancels the survey, stops the source, shuts the registry down (its own order: the reverse of the
/// declared dependencies) and then lets the events already read reach the output.
package final class RegistryService: SingletondService {
    private let source: LocationSource
    private let defaultSurveySeconds: Double
    private let output: OutputService
    private let control: ControlService
    private let forwarder: ReportForwarder
    private let notify: SDNotify
    private let logger: LogWriter
    private let signals: SignalHandler
    private let running = StartedValue<Task<Void, Never>>("the registry")

    package init(
        source: LocationSource, defaultSurveySeconds: Double, output: OutputService, control: ControlService,
        forwarder: ReportForwarder, notify: SDNotify, logger: LogWriter, signals: SignalHandler
    ) {
        self.source = source
        self.defaultSurveySeconds = defaultSurveySeconds
        self.output = output
        self.control = control
        self.forwarder = forwarder
        self.notify = notify
        self.logger = logger
        self.signals = signals
    }

    package func start() async throws(SingletondStartError) {
        await compose()
        let location = await appSingletons.locationManager
        let tasks = await appSingletons.longTaskManager
        await forwarder.start(from: location, output: output.output, control: control.server)
        let (device, notify) = (forwarder.devicePath, notify)
        let logging = logStates(await location.stateChanges(), tasks: await tasks.stateChanges()) {
            notify.status(await StatusReport.take(device: device, clients: (0, 0)).summary)
        }
        running.set(logging)
        do {
            try await appSingletons.start()
            // A signal during startup: the source is not opened, and the shutdown follows at once.
            if !signals.terminationRequested {
                logger.info("opening \(source)")
                try await location.start(source)
            }
        } catch {
            await shutdown()
            throw SingletondStartError("cannot open \(source): \(error)")
        }
    }

    package func shutdown() async {
        await appSingletons.longTaskManager.cancel()
        await appSingletons.locationManager.shutdown()
        await appSingletons.shutdown()
        // The source is closed: let the forwarder write the events it still holds.
        await forwarder.stop()
        running.ifStarted?.cancel()
    }

    /// Makes the process-wide container hold the live managers, location first, with the survey as the long
    /// task's default job.
    @RegistryActor
    private func compose() {
        appSingletons.declare(LocationManagerKey.self, LongTaskManagerKey.self)
        appSingletons.longTaskManager.defaultJob = SurveyJob.defaultJob(seconds: defaultSurveySeconds, logger: logger)
    }

    /// Logs every state change of the location and task managers and calls `changed` after each.
    private func logStates(
        _ locations: AsyncStream<LocationState>, tasks: AsyncStream<LongTaskState>,
        changed: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never> {
        let logger = logger
        return Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    var log = LocationStateLog()
                    let timeline = Timeline(await appSingletons.clock)
                    for await state in locations {
                        for line in log.lines(for: state, at: timeline.now) { logger.log(line.level, line.text) }
                        await changed()
                    }
                }
                group.addTask {
                    for await state in tasks {
                        if case .running(_, let progress) = state, progress > 0 { continue }
                        // A job run again and again is logged once a minute with a count, per state and job.
                        logger.log(.info, repeating: Self.cause(of: state), "task: \(state)") {
                            "task: \(state) (\($0) times since the last line)"
                        }
                        await changed()
                    }
                }
            }
        }
    }

    /// What repeats of a task state are counted under: the state and the job, without the progress or a failure's
    /// message (so that the causes stay few).
    private static func cause(of state: LongTaskState) -> String {
        switch state {
        case .idle: "task: idle"
        case .running(let name, _): "task: running \(name)"
        case .finished(let name): "task: finished \(name)"
        case .cancelled(let name): "task: cancelled \(name)"
        case .failed(let name, _): "task: failed \(name)"
        }
    }
}
