import GNSSProtocol
import Observation

/// Owns one position source, keeps the latest fix and the receiver's state, and streams fixes to subscribers.
///
/// A non-final class isolated to ``RegistryActor``, held by ``AppSingletons``; tests subclass it to feed scripted
/// fixes through ``deliver(_:)-(Fix)``.
@Observable
@RegistryActor
open class LocationManager: ManagedSingleton {
    /// The live shared instance that ``AppSingletons()`` holds.
    public static let live = LocationManager()

    /// Where the manager is with its source.
    public private(set) var state: LocationState = .idle
    /// The latest fix, with or without a position.
    public private(set) var lastFix: Fix?
    /// The latest satellite view.
    public private(set) var satellites: SkyView?

    @ObservationIgnored private let fixes = Broadcaster<Fix>()
    @ObservationIgnored private let states = Broadcaster<LocationState>()

    /// Creates a manager with no source.
    public nonisolated init() {}

    /// Every state change from now on, starting with the current state, in order.
    public func stateChanges() -> AsyncStream<LocationState> {
        states.subscribe(initial: state)
    }

    /// A fresh stream of the fixes delivered from now on, keeping at most `bufferSize` unread fixes.
    public func updates(bufferSize: Int = 64) -> AsyncStream<Fix> {
        fixes.subscribe(bufferingPolicy: .bufferingNewest(max(1, bufferSize)))
    }

    /// Makes `fix` the latest fix and sends it to every subscriber.
    open func deliver(_ fix: Fix) {
        lastFix = fix
        fixes.send(fix)
    }

    /// Makes `sky` the latest satellite view.
    open func deliver(_ sky: SkyView) {
        satellites = sky
    }

    /// Moves to `newState` and tells the state subscribers.
    public func transition(to newState: LocationState) {
        guard newState != state else { return }
        state = newState
        states.send(newState)
    }

    /// Nothing to start until a source is configured.
    open func start() async throws {}

    /// Stops the source.
    open func shutdown() async {
        transition(to: .idle)
    }
}
