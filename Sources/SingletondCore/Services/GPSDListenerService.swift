import GNSSLocation
import GNSSProtocol
import Observation
import SingletonRegistry
import SystemCalls

/// The gpsd-protocol listener (`--listen`): its port bound by ``binding`` before the source opens, so that a port
/// that is taken refuses the start before anything is read or written; then, once the registry's managers run,
/// serving and fed from `appSingletons.locationManager` (a TPV per fix, a SKY when the satellite view changes, a
/// DEVICE when the source comes and goes), and closed with its clients before the registry stops.
package final class GPSDListenerService: SingletondService {
    private let address: ListenAddress
    private let devicePath: String
    private let limits: ClientLimits
    private let logger: LogWriter
    private let bound = StartedValue<GPSDListener>("the gpsd listener's socket")
    private let running = StartedValue<(listener: GPSDListener, feed: Task<Void, Never>)>("the gpsd listener")

    package init(
        address: ListenAddress, devicePath: String, limits: ClientLimits = ClientLimits(),
        logger: LogWriter
    ) {
        self.address = address
        self.devicePath = devicePath
        self.limits = limits
        self.logger = logger
    }

    /// The listener; `nil` before ``start()``.
    package var listener: GPSDListener? { running.ifStarted?.listener }

    /// The service that binds the listener's port, started before the source opens; its shutdown closes the socket
    /// when serving never started.
    package var binding: any SingletondService { Binding(service: self) }

    /// Binds the port unless ``binding`` did, starts the listener's thread and its feed.
    package func start() async throws(SingletondStartError) {
        let listener = try await bind()
        do throws(Errno) {
            try listener.start()
        } catch {
            await listener.stop()
            throw SingletondStartError("gpsd listener: cannot start its thread: \(error)")
        }
        let location = await appSingletons.locationManager
        let feed = Self.feed(
            listener, from: location, updates: await location.updates(bufferSize: 256),
            sentences: location.nmeaSentences(bufferSize: 1_024), states: await location.stateChanges())
        running.set((listener, feed))
        logger.info("gpsd listener on \(address), device \(devicePath)")
        if address.octets.first != 127 {
            logger.warning(
                "gpsd listener on \(address) is not a loopback address: it serves positions to every host that can "
                    + "reach it, without access control")
        }
    }

    package func shutdown() async {
        guard let (listener, feed) = running.ifStarted else { return }
        feed.cancel()
        await feed.value
        await listener.stop()
    }

    /// The bound listener: bound now, unless ``binding`` bound it before.
    private func bind() async throws(SingletondStartError) -> GPSDListener {
        if let listener = bound.ifStarted { return listener }
        let listener = try GPSDListener.bind(
            address, devicePath: devicePath, limits: limits, logger: logger, clock: await appSingletons.clock)
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

    /// Starts the task feeding `listener`: its fixes from `updates`, the manager's satellite view as it changes,
    /// the source's raw NMEA `sentences`, and its device from `states`.
    private static func feed(
        _ listener: GPSDListener, from location: LocationManager, updates: LocationUpdates,
        sentences: AsyncStream<[UInt8]>, states: AsyncStream<LocationState>
    ) -> Task<Void, Never> {
        let device = listener.devicePath
        return Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    var writer = GPSDReportWriter()
                    for await update in updates {
                        // A fix means the source is active: its DEVICE goes out before the first TPV, whichever
                        // stream, this one or the states, is read first.
                        listener.setDevice(activated: System.wallClockMilliseconds())
                        var object: [UInt8] = []
                        writer.appendTPV(update.fix, device: device, newline: false, to: &object)
                        listener.publish(.tpv(object))
                    }
                }
                group.addTask {
                    // The satellite view as it changes, with or without a fix (a receiver still searching reports
                    // its sky); changes that come faster than this task reads are merged into the latest.
                    var writer = GPSDReportWriter()
                    for await sky in await Self.satelliteViews(of: location) {
                        guard let sky else { continue }
                        var object: [UInt8] = []
                        writer.appendSKY(sky, device: device, newline: false, to: &object)
                        listener.publish(.sky(object))
                    }
                }
                group.addTask {
                    for await sentence in sentences { listener.publish(.nmea(sentence)) }
                }
                group.addTask {
                    for await state in states {
                        switch state {
                        case .waitingForFix, .fixed, .stale:
                            listener.setDevice(activated: System.wallClockMilliseconds())
                        case .idle, .connecting, .reconnecting, .failed:
                            listener.setDevice(activated: nil)
                        }
                    }
                }
            }
        }
    }

    /// The manager's satellite view, now and after each change.
    @RegistryActor
    private static func satelliteViews(of location: LocationManager) -> Observations<SkyView?, Never> {
        Observations { location.satellites }
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
