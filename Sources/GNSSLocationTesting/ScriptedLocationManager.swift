import GNSSLocation
import GNSSProtocol
import SingletonRegistry

/// A ``GNSSLocation/LocationManager`` for tests: ``start(_:)`` plays a script of fixes instead of opening
/// the source.
///
/// The fixes go through ``GNSSLocation/LocationManager/deliver(_:)-(Fix)``, so `state`, `lastFix`,
/// `stateChanges()` and every `updates()` and `events()` subscriber behave as with a real source. Install it with the
/// trait:
///
/// ```swift
/// @Test(.singletons { $0.locationManager = ScriptedLocationManager(script: fixes) })
/// ```
@RegistryActor
open class ScriptedLocationManager: LocationManager {
    /// The fixes each ``start(_:)`` plays, in order.
    public let script: [Fix]
    /// The wait before each fix; `nil` plays the script as fast as the subscribers take it.
    public let interval: Duration?
    /// The sources ``start(_:)`` was asked for, in order (nothing is opened).
    public private(set) var requestedSources: [LocationSource] = []
    private var player: Task<Void, Never>?

    /// Creates a manager that plays `script`, waiting `interval` before each fix (none when `nil`).
    public nonisolated init(script: [Fix], interval: Duration? = nil) {
        self.script = script
        self.interval = interval
        super.init()
    }

    /// Records `source` and plays the script from its start in the background, replacing a running play.
    open override func start(_ source: LocationSource) async throws {
        await shutdown()
        requestedSources.append(source)
        transition(to: .waitingForFix(source: "scripted \(source)"))
        let script = script
        let interval = interval
        player = Task {
            for fix in script {
                if let interval {
                    do { try await Task.sleep(for: interval) } catch { return }
                } else {
                    await Task.yield()
                }
                if Task.isCancelled { return }
                deliver(fix)
            }
        }
    }

    /// Stops the play and waits for it; subscribers keep their streams.
    open override func shutdown() async {
        let running = player
        player = nil
        running?.cancel()
        await running?.value
        await super.shutdown()
    }
}
