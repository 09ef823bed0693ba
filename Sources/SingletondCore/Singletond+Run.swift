import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import SystemCalls

/// `singletond run`: composes the registry, the position source, the TPV output, the control socket, signals and
/// systemd notifications, and runs until SIGTERM or SIGINT.
///
/// Everything here runs on the cooperative pool or on threads of its own (the control socket's poll thread, the
/// output queue, the signal queue); the main actor is never used. The registry is reached through
/// `appSingletons` on ``SingletonRegistry/RegistryActor``.
extension Singletond {
    /// Runs the daemon and returns its exit status: 0 after a graceful shutdown, 1 when something it needs cannot
    /// be opened. A shutdown that takes longer than ``RunOptions/stopTimeout`` from the first SIGTERM or SIGINT
    /// exits the process with status 1, whether the signal came while it ran or while it was still starting.
    ///
    /// The parts are services of a ``SingletondServiceGroup``, started in this order and shut down in reverse: the
    /// output, the control socket (bound), the gpsd-protocol listener's port when `--listen` asks for one (bound),
    /// the registry's managers with the position source, the listener's serving, and the socket's serving with the
    /// readiness notification. Whatever can refuse the start is opened before the source: a refusal writes nothing.
    /// Signals reach `signals` only in a process whose threads all block them: run it through ``runProcess(_:)``.
    package static func run(_ options: RunOptions, environment: [String: String], signals: SignalHandler) async -> Int32
    {
        let logger = LogWriter(
            minimumLevel: options.logLevel, journalFormat: LogWriter.isJournal(fd: 2, environment: environment),
            clock: await appSingletons.clock)
        // The registry's warnings (a value set after it was read) go to the log: standard output may be the fixes.
        await Self.logRegistryWarnings(to: logger)
        if let problem = DescriptorBudget.startProblem() {
            logger.error(problem)
            return 1
        }
        let notify = SDNotify(environment: environment, logger: logger)
        defer { signals.cancel() }
        // The first signal is taken at once, even in the middle of startup and however busy the cooperative pool
        // is: the signal handler's thread logs it and sends `STOPPING=1` itself, after arming its own deadline (the
        // stop timeout and a second), so a part that does not start or stop in time cannot keep the daemon from
        // ending. On the pool, the stop deadline proper (the stop timeout, on the registry's clock) is armed and the
        // group's stop begins; a decode loop yields often enough that both come at once.
        signals.onTermination { signo in
            logger.info("\(SignalHandler.name(of: signo)): shutting down")
            notify.stopping()
        }
        let firstSignal = Task {
            var signalled = signals.terminations.makeAsyncIterator()
            guard await signalled.next() != nil else { return }
            let stopTimeout = options.stopTimeout
            StopDeadline.arm(timeout: stopTimeout, clock: await appSingletons.clock) {
                logger.error("shutdown took longer than \(stopTimeout); exiting now")
                System.exitImmediately(1)
            }
        }
        let source = locationSource(for: options.source, replaySpeed: options.replaySpeed)
        let output = OutputService(path: options.output, logger: logger, signals: signals)
        let control = ControlService(option: options.control, environment: environment, logger: logger)
        // One name for the source in every report, reply and status: the device path the forwarder's reports carry.
        let device = GPSDListenerService.devicePath(for: options.source)
        let forwarder = ReportForwarder(
            devicePath: device, includesSentences: options.listen != nil, sourceWaits: source.canWait, logger: logger)
        let registry = RegistryService(
            source: source, defaultSurveySeconds: options.surveySeconds, output: output, control: control,
            forwarder: forwarder, notify: notify, logger: logger, signals: signals)
        let serialSpeed: Int? = if case .nmeaSerial(_, let baud) = source { baud } else { nil }
        let listener = options.listen.map {
            GPSDListenerService(address: $0, forwarder: forwarder, serialSpeed: serialSpeed, logger: logger)
        }
        let readiness = ReadinessService(
            control: control,
            responder: { server in
                ControlResponder(
                    device: device, defaultSurveySeconds: options.surveySeconds, logger: logger,
                    server: server, listener: listener)
            },
            readyLine: "singletond \(version) ready: \(device), control socket \(control.path), "
                + "output \(options.output == "-" ? "standard output" : options.output)",
            environment: environment, notify: notify, logger: logger)
        // Everything that can refuse the start (the output, the control socket, the listener's port) is opened
        // before the registry opens the source, so that a refusal comes before any fix is read or written.
        let services: [any SingletondService] =
            [output, control] + (listener.map { [$0.binding] } ?? []) + [registry] + (listener.map { [$0] } ?? [])
            + [readiness]
        let group = SingletondServiceGroup(services, logger: logger)
        // After a start failure, the parts that started are shut down within the stop timeout too: a part that
        // could not start its thread may leave the runtime short of threads to finish the others.
        let status = await group.run(
            terminationRequested: { signals.terminationRequested }, terminated: { await firstSignal.value },
            startFailed: { signals.armDeadline(after: options.stopTimeout) })
        firstSignal.cancel()
        if notify.droppedCount > 0 {
            logger.warning(
                "systemd: \(notify.droppedCount) notifications dropped in all (the notify socket did not take them)")
        }
        return status
    }

    /// The registry's source for a command-line source; an NMEA file is paced by its timestamps at `replaySpeed`
    /// when one is given.
    package static func locationSource(for option: SourceOption, replaySpeed: Double? = nil) -> LocationSource {
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
            isTerminal(path)
                ? .nmeaSerial(path: path, baud: 9_600)
                : .nmeaFile(path: path, pacing: replaySpeed.map { .timestamps(speed: $0) } ?? .asFastAsPossible)
        }
    }

    /// Whether `path` is a terminal (a serial port, a USB receiver, a pseudo-terminal): opened without becoming the
    /// controlling terminal and without waiting for a modem line, and asked. Other character devices
    /// (`/dev/urandom`) are read as files.
    private static func isTerminal(_ path: String) -> Bool {
        guard let info = try? System.status(ofPath: path), info.st_mode & S_IFMT == S_IFCHR,
            let fd = try? System.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        else { return false }
        defer { System.close(fd) }
        return System.isTerminal(fd)
    }
}
