import SingletonRegistry
import SystemCalls

/// The gpsd-protocol listener (`--listen`): its port bound by ``binding`` before the source opens, so that a port
/// that is taken refuses the start before anything is read or written; then, once the registry's managers run,
/// serving and fed by the ``ReportForwarder`` (a TPV per fix, a SKY when the satellite view changes, a DEVICE when
/// the source comes and goes, the raw sentences), and closed with its clients before the registry stops.
package final class GPSDListenerService: SingletondService {
    private let address: ListenAddress
    private let forwarder: ReportForwarder
    private let limits: ClientLimits
    private let serialSpeed: Int?
    private let logger: LogWriter
    private let bound = StartedValue<GPSDListener>("the gpsd listener's socket")
    private let running = StartedValue<GPSDListener>("the gpsd listener")

    /// The listener's limits: those of the control socket, but 512 KiB queued per client, so that a watcher that
    /// reads loses nothing while a flood of 4,000 sentences a second goes to 50 of them (`Benchmarks/flood-vs-gpsd.sh`).
    /// The watchers share the lines they are sent: 50 watchers that fall behind together hold one copy.
    package static let limits = ClientLimits(maximumQueuedBytes: 512 * 1_024)

    /// A listener on `address` for the reports of `forwarder`, which names the device; `serialSpeed` is the line
    /// speed of a serial source, which its DEVICE reports.
    package init(
        address: ListenAddress, forwarder: ReportForwarder, limits: ClientLimits = GPSDListenerService.limits,
        serialSpeed: Int? = nil, logger: LogWriter
    ) {
        self.address = address
        self.forwarder = forwarder
        self.limits = limits
        self.serialSpeed = serialSpeed
        self.logger = logger
    }

    /// The listener; `nil` before ``start()``.
    package var listener: GPSDListener? { running.ifStarted }

    /// The service that binds the listener's port, started before the source opens; its shutdown closes the socket
    /// when serving never started.
    package var binding: any SingletondService { Binding(service: self) }

    /// Binds the port unless ``binding`` did, starts the listener's thread and attaches it to the forwarder.
    package func start() async throws(SingletondStartError) {
        let listener = try await bind()
        do throws(Errno) {
            try listener.start()
        } catch {
            await listener.stop()
            throw SingletondStartError("gpsd listener: cannot start its thread: \(error)")
        }
        forwarder.attach(listener)
        running.set(listener)
        logger.info("gpsd listener on \(address), device \(forwarder.devicePath)")
        if address.octets.first != 127 {
            logger.warning(
                "gpsd listener on \(address) is not a loopback address: it serves positions to every host that can "
                    + "reach it, without access control")
        }
    }

    package func shutdown() async {
        guard let listener = running.ifStarted else { return }
        forwarder.detach()
        await listener.stop()
        let dropped = listener.statistics.droppedReports
        logger.log(dropped == 0 ? .info : .warning, "gpsd listener: \(dropped) reports dropped for slow clients in all")
    }

    /// The bound listener: bound now, unless ``binding`` bound it before.
    private func bind() async throws(SingletondStartError) -> GPSDListener {
        if let listener = bound.ifStarted { return listener }
        let listener = try GPSDListener.bind(
            address, devicePath: forwarder.devicePath, serialSpeed: serialSpeed, limits: limits, logger: logger,
            clock: await appSingletons.clock)
        bound.set(listener)
        return listener
    }

    /// ``GPSDListenerService/binding``: the port bound early, closed by its shutdown when serving never started.
    private final class Binding: SingletondService {
        let service: GPSDListenerService

        init(service: GPSDListenerService) {
            self.service = service
        }

        func start() async throws(SingletondStartError) {
            _ = try await service.bind()
        }

        func shutdown() async {
            guard service.running.ifStarted == nil, let listener = service.bound.ifStarted else { return }
            await listener.stop()
        }
    }

    /// The device path the listener reports for a command-line source: the file or device path, `stdin`, or a URL
    /// of the peer (`gpsd://HOST:PORT`, `tcp://HOST:PORT`); `demo` for the built-in track.
    package static func devicePath(for source: SourceOption) -> String {
        switch source {
        case .demo: "demo"
        case .nmea("-", _): "stdin"
        case .nmea(let path, _): path
        case .gpsd(let host, let port): "gpsd://\(host):\(port)"
        case .nmeaTCP(let host, let port): "tcp://\(host):\(port)"
        }
    }
}
