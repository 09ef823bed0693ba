import GNSSLocation
import GNSSProtocol
import SingletonRegistry

#if canImport(Glibc)
    import Glibc
#endif

/// `singletond run`: composes the registry, the position source, the TPV output, the control socket, signals and
/// systemd notifications, and runs until SIGTERM or SIGINT.
///
/// Everything here runs on the cooperative pool or on threads of its own (the control socket's poll thread, the
/// output queue, the signal queue); the main actor is never used. The registry is reached through
/// `appSingletons` on ``SingletonRegistry/RegistryActor``.
package enum Daemon {
    /// Runs the daemon and returns its exit status: 0 after a graceful shutdown, 1 when something it needs cannot
    /// be opened. A shutdown that takes longer than ``RunOptions/stopTimeout`` from the first SIGTERM or SIGINT
    /// exits the process with status 1, whether the signal came while it ran or while it was still starting.
    ///
    /// Signals reach `signals` only in a process whose threads all block them: run it through
    /// ``Singletond/runProcess(_:)``.
    package static func run(_ options: RunOptions, environment: [String: String], signals: SignalHandler) async -> Int32
    {
        let logger = Logger(
            minimumLevel: options.logLevel, journalFormat: Logger.isJournal(fd: 2, environment: environment))
        let notify = SDNotify(environment: environment)
        // The first signal is taken at once, even in the middle of startup: it is logged and the stop deadline is
        // armed, so a startup step that does not return cannot keep the daemon from ending.
        let firstSignal = Task {
            var signalled = signals.terminations.makeAsyncIterator()
            guard let signo = await signalled.next() else { return SIGTERM }
            logger.info("\(SignalHandler.name(of: signo)): shutting down")
            notify.stopping()
            let stopTimeout = options.stopTimeout
            StopDeadline.arm(timeout: stopTimeout, clock: await appSingletons.clock) {
                logger.error("shutdown took longer than \(stopTimeout); exiting now")
                _exit(1)
            }
            return signo
        }
        let output: FixOutput
        do {
            output = try FixOutput(path: options.output, logger: logger, clock: await appSingletons.clock)
        } catch {
            logger.error("\(error)")
            return 1
        }
        signals.onHangUp {
            logger.info("SIGHUP: reopening the output")
            output.reopen()
        }
        defer { signals.cancel() }

        let controlPath = ControlPath.resolve(options.control, environment: environment, userID: getuid())
        if options.control == nil,
            let directory = ControlPath.privateDirectory(environment: environment, userID: getuid()),
            let problem = ControlPath.checkPrivate(directory, create: true)
        {
            logger.error("control socket: \(problem)")
            await output.close()
            return 1
        }
        let server: ControlServer
        do {
            server = try ControlServer.bind(path: controlPath, logger: logger, clock: await appSingletons.clock)
        } catch {
            logger.error("\(error)")
            return 1
        }
        let source = locationSource(for: options.source)

        await compose(defaultSurveySeconds: options.surveySeconds, logger: logger)
        let location = await appSingletons.locationManager
        let tasks = await appSingletons.longTaskManager
        let forwarder = await forwardFixes(from: location, to: output, server: server)
        let background = [
            logStates(await location.stateChanges(), tasks: await tasks.stateChanges(), logger: logger) {
                notify.status(await StatusReport.take(source: source.description, clients: (0, 0)).summary)
            }
        ]

        do {
            try await appSingletons.start()
            // A signal that came during startup: the source is not opened, and the shutdown below follows at once.
            if !signals.terminationRequested {
                logger.info("opening \(source)")
                try await location.start(source)
            }
        } catch {
            logger.error("cannot open \(source): \(error)")
            forwarder.cancel()
            for task in background { task.cancel() }
            await appSingletons.shutdown()
            await server.stop()
            await output.close()
            return 1
        }

        // Nor is a daemon signalled during startup announced ready.
        var watchdog: Task<Void, Never>?
        if !signals.terminationRequested {
            let responder = ControlResponder(
                source: source.description, defaultSurveySeconds: options.surveySeconds, logger: logger,
                server: server)
            server.start { request, connection in await responder.respond(to: request, on: connection) }
            let summary = await StatusReport.take(source: source.description, clients: (0, 0)).summary
            notify.ready(status: summary)
            logger.info(
                "singletond \(Singletond.version) ready: \(source), control socket \(controlPath), "
                    + "output \(options.output == "-" ? "standard output" : options.output)")
            watchdog = Watchdog.interval(environment: environment, processID: getpid()).map { interval in
                logger.debug("watchdog: pinging systemd every \(interval)")
                return Task { await Watchdog.run(every: interval, notify: notify, clock: appSingletons.clock) }
            }
        }

        _ = await firstSignal.value
        server.stopAccepting()
        watchdog?.cancel()
        await tasks.cancel()
        await location.stop()
        await appSingletons.shutdown()
        // The source is closed: let the forwarder write the fixes it still holds, then close the output.
        forwarder.cancel()
        await forwarder.value
        for task in background { task.cancel() }
        await output.close()
        await server.stop()
        logger.info("stopped")
        return 0
    }

    /// The registry's source for a command-line source.
    package static func locationSource(for option: SourceOption) -> LocationSource {
        switch option {
        case .demo:
            .nmeaReplay(name: DemoTrack.name, bytes: DemoTrack.nmea(), pacing: .timestamps(speed: 1), loops: true)
        case .gpsd(let host, let port):
            .gpsd(host: host, port: port)
        case .nmeaTCP(let host, let port):
            .nmeaTCP(host: host, port: port)
        case .nmea("-", _):
            .nmeaStandardInput
        case .nmea(let path, let baud?):
            .nmeaSerial(path: path, baud: baud)
        case .nmea(let path, nil):
            isTerminal(path) ? .nmeaSerial(path: path, baud: 9_600) : .nmeaFile(path: path)
        }
    }

    /// Whether `path` is a terminal (a serial port, a USB receiver, a pseudo-terminal): opened without becoming the
    /// controlling terminal and without waiting for a modem line, and asked. Other character devices
    /// (`/dev/urandom`) are read as files.
    private static func isTerminal(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFCHR else { return false }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return isatty(fd) == 1
    }

    /// Makes the process-wide container hold the live managers, location first, with the survey as the long
    /// task's default job.
    @RegistryActor
    private static func compose(defaultSurveySeconds: Double, logger: Logger) {
        appSingletons = AppSingletons()
        appSingletons.declare(LocationManagerKey.self, LongTaskManagerKey.self)
        appSingletons.longTaskManager.defaultJob = SurveyJob.defaultJob(seconds: defaultSurveySeconds, logger: logger)
    }

    /// Writes a TPV line per fix to the output and to every watcher.
    private static func forwardFixes(
        from location: LocationManager, to output: FixOutput, server: ControlServer
    ) async -> Task<Void, Never> {
        let updates = await location.updates(bufferSize: 1_024)
        return Task {
            var line: [UInt8] = []
            for await update in updates {
                line.removeAll(keepingCapacity: true)
                GPSDJSONWriter.appendTPV(fixOf(update), to: &line)
                output.write(line)
                server.broadcast(line)
            }
        }
    }

    /// Logs every state change of the location and task managers and calls `changed` after each.
    private static func logStates(
        _ locations: AsyncStream<LocationState>, tasks: AsyncStream<LongTaskState>, logger: Logger,
        changed: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never> {
        Task {
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
                        logger.info("task: \(state)")
                        await changed()
                    }
                }
            }
        }
    }

    private static func fixOf(_ fix: Fix) -> Fix { fix }
    private static func fixOf(_ update: LocationUpdate) -> Fix { update.fix }
}
