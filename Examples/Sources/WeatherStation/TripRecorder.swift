import GNSSLocation
import GNSSProtocol
import SingletonRegistry

/// Records the positions the location manager reports while it runs: a manager with a lifecycle of its own that
/// depends on `locationManager`, so the registry starts it after the location manager and stops it before.
///
/// Non-final and isolated to the registry's actor, so a test can subclass it.
@RegistryActor
open class TripRecorder: ManagedSingleton {
    /// The positions recorded, oldest first, at most the configuration's `maxTripPoints`.
    public private(set) var points: [Fix] = []
    /// Whether the recorder is subscribed to the location manager.
    public var isRecording: Bool { recording != nil }

    private var recording: Task<Void, Never>?

    /// A recorder that has recorded nothing.
    ///
    /// `nonisolated`, so that a test can make a mock subclass anywhere without an `await`.
    public nonisolated init() {}

    /// Subscribes to the location manager's updates and records each position.
    open func start() async throws {
        guard recording == nil else { return }
        let updates = appSingletons.locationManager.updates(bufferSize: 64)
        recording = Task {
            for await update in updates where update.fix.latitude != nil {
                record(update.fix)
            }
        }
    }

    /// Adds `fix` to the trip, dropping the oldest point past the configured limit.
    open func record(_ fix: Fix) {
        let limit = appSingletons.stationConfiguration.maxTripPoints
        points.append(fix)
        if points.count > limit { points.removeFirst(points.count - limit) }
    }

    /// Stops recording and waits for the subscription to end.
    open func shutdown() async {
        let running = recording
        recording = nil
        running?.cancel()
        await running?.value
    }
}

/// The key of the shared ``TripRecorder``: it starts after the location manager.
public enum TripRecorderKey: SingletonKey {
    /// A recorder that has recorded nothing.
    public static var liveValue: TripRecorder { TripRecorder() }
    /// A recorder of the test's own: it records only what the test's location manager delivers.
    public static var testValue: TripRecorder { TripRecorder() }
    /// The location manager, which the recorder subscribes to.
    public static var dependencies: [any SingletonKey.Type] { [LocationManagerKey.self] }
}

extension AppSingletons {
    /// The station's trip recorder.
    public var tripRecorder: TripRecorder {
        get { self[TripRecorderKey.self] }
        set { self[TripRecorderKey.self] = newValue }
    }
}
