import GNSSProtocol
import Observation
import SingletonRegistry
import Synchronization

/// Owns one position source, keeps the latest fix and the receiver's state, and streams what the source produces
/// to subscribers.
///
/// The Linux counterpart of CoreLocation's manager for a daemon. A non-final class isolated to `RegistryActor`,
/// held by `AppSingletons`; tests subclass it and feed scripted fixes through ``deliver(_:)-(Fix)``.
///
/// The source runs off the actor: bytes are read on a reader thread and decoded on the cooperative pool, and what
/// one read completed hops to the actor at once. ``state``, ``lastFix`` and ``satellites`` are observable with
/// Observation; ``stateChanges()`` delivers every state change in order; ``updates(bufferSize:)`` gives each
/// subscriber its own bounded stream of fixes; ``events(bufferSize:includingSentences:holdingSource:)`` gives fixes, satellite
/// views, state changes and raw sentences in one bounded stream, in the order the source produced them.
@Observable
@RegistryActor
open class LocationManager: ManagedSingleton {
    /// Where the manager is with its source.
    public private(set) var state: LocationState = .idle
    /// The latest fix, with or without a position.
    ///
    /// Observable together with ``fixCount``: both change in the one mutation each fix makes.
    public var lastFix: Fix? {
        lastFixMayBeTracked = true
        access(keyPath: LocationManager.lastFixPath)
        return untrackedLastFix
    }
    /// The latest satellite view.
    public private(set) var satellites: SkyView?
    /// The source running now, if any.
    public private(set) var source: LocationSource?
    /// The last thing that went wrong with the source (a bad line from gpsd, a lost connection), until it recovers.
    public private(set) var lastProblem: String?
    /// How many fixes were delivered since the manager was created; observable together with ``lastFix``.
    public var fixCount: Int {
        lastFixMayBeTracked = true
        access(keyPath: LocationManager.lastFixPath)
        return deliveredFixes
    }
    /// ``lastFix`` for a reader that observes nothing, such as the daemon's status query: reading it leaves
    /// `deliver` free to skip the registrar.
    package var untrackedLastFix: Fix? { deliveredFixes == 0 ? nil : latestFix }
    /// ``fixCount`` for a reader that observes nothing, as ``untrackedLastFix``. hop-bench, in the Benchmarks
    /// package, reads it as the daemon's status query reads the fix: through this SPI, since `package` stops at the
    /// package's edge.
    @_spi(Benchmarks) public var untrackedFixCount: Int { deliveredFixes }

    /// The source ``start()`` (the registry's lifecycle) runs; `nil` starts nothing.
    public var configuredSource: LocationSource?
    /// How long without a fix before a fixed state turns ``LocationState/stale(source:)``.
    public var staleAfter: Duration = .seconds(5)
    /// How long to wait before reopening a lost source.
    public var reconnectPolicy = ReconnectPolicy()
    /// How long a gpsd connection may stay silent before it counts as stalled and is reopened; `nil` waits for ever.
    /// Takes effect at the next ``start(_:)``.
    ///
    /// Silence is counted only while the manager has nothing left to decode, so a busy manager is never taken for a
    /// silent peer. A gpsd with no receiver attached is quiet, so gpsd is first asked `?VERSION;`, which it answers
    /// in any case: only a gpsd that also leaves that unanswered for the same time has stalled. The reason of the
    /// ``LocationState/reconnecting(source:attempt:reason:retryIn:)`` state ends with `(stalled)`. An NMEA source
    /// (TCP, serial or file) is not timed: as gpsd 3.22 keeps a quiet device, the manager keeps a quiet NMEA
    /// connection and reopens it only when it closes or fails.
    public var silenceTimeout: Duration? = .seconds(10)

    /// ``lastFix`` and ``fixCount``, changed together under the one key path `\.lastFix`: one observable
    /// mutation per fix instead of two, and no comparison of the old fix with the new one.
    /// Unchecked for exclusivity: only the actor touches them, each in one assignment that calls nothing, and the
    /// mutation's closure made every fix pay for a dynamic check (CONCURRENCY.md, "The open registry").
    /// The fix is kept as a `Fix`, not a `Fix?` (``fixCount`` says whether there is one): assigning an optional of
    /// this ~350-byte struct went through its generic value witnesses, a third of `deliver`'s own instructions.
    @ObservationIgnored @exclusivity(unchecked) private var latestFix = Fix()
    @ObservationIgnored @exclusivity(unchecked) private var deliveredFixes = 0
    /// Whether ``lastFix`` or ``fixCount`` was ever read. Until then nothing can be observing them: Observation
    /// tracks a property only after a read of it inside the tracking closure, and only these two getters register
    /// that access. While it is false, `deliver` skips the registrar's `willSet` and `didSet`, two locks per fix
    /// that would find no observer (CONCURRENCY.md, "Where `deliver` spends its time"). It never goes back to
    /// false: a tracking registration may last, so a read once means an observer may be there from then on.
    @ObservationIgnored private var lastFixMayBeTracked = false
    /// Whether `deliver` calls the registrar, as ``lastFixMayBeTracked`` decides; for the tests. The flag itself stays
    /// private: made package, it cost `deliver` 80 more instructions per fix (`Benchmarks/instructions.sh`).
    package var deliverNotifiesObservers: Bool { lastFixMayBeTracked }
    /// `\.lastFix`, made once: a key-path literal is looked up in the runtime each time it is evaluated.
    private static let lastFixPath = \LocationManager.lastFix
    @ObservationIgnored private let fixes = FanOut<Fix>()
    @ObservationIgnored private let states = Broadcaster<LocationState>()
    /// The subscribers of ``events(bufferSize:includingSentences:holdingSource:)``.
    @ObservationIgnored let eventFanOut = FanOut<LocationEvent>()
    /// Those of them that take raw sentences too (each is in ``eventFanOut`` as well).
    @ObservationIgnored let sentenceFanOut = FanOut<LocationEvent>()
    /// Whether ``sentenceFanOut`` may have a subscriber: the session, off the actor, splits sentences out only then.
    /// Set when one subscribes, cleared when a sentence finds none left; a hint, so relaxed.
    nonisolated let sentencesWanted = Atomic<Bool>(false)
    @ObservationIgnored private var session: Task<Void, Never>?
    /// The staleness watch, which runs while the state is fixed.
    @ObservationIgnored private var staleWatch: Task<Void, Never>?
    /// Whether a staleness timer is pending (only while the state is fixed).
    var isWatchingForStaleness: Bool { staleWatch != nil }
    /// The origin of the staleness watch's time while it runs on the live clock, read directly: a fix's stamp is
    /// then one clock read, where ``staleTimeline`` goes through a generic clock's requirements.
    @ObservationIgnored @exclusivity(unchecked) private var staleOrigin: ContinuousClock.Instant?
    /// The staleness watch's time while it runs on any other clock (a test's).
    @ObservationIgnored @exclusivity(unchecked) private var staleTimeline: Timeline?
    /// When the last fix came, as the staleness watch counts time: from ``staleOrigin`` or on ``staleTimeline``.
    /// Unchecked for exclusivity like ``latestFix``: written once per fix, read by the staleness watch between its
    /// sleeps, both on the actor and calling nothing while they access it.
    @ObservationIgnored @exclusivity(unchecked) private var lastFixTime = Duration.zero

    /// Creates a manager with no source.
    public nonisolated init() {}

    /// Starts reading `source`, replacing the source running now.
    ///
    /// Files, standard input and serial devices are opened before this returns, and an error opening them is
    /// thrown (and the state becomes ``LocationState/failed(source:message:)``). Network sources (gpsd, NMEA over
    /// TCP) are opened in the background and retried with backoff until they answer.
    open func start(_ source: LocationSource) async throws {
        await shutdown()
        self.source = source
        lastProblem = nil
        var firstChannel: ByteChannel?
        if !source.retriesFirstOpen, let byteSource = source.byteSource {
            transition(to: .connecting(source: source.description))
            do {
                firstChannel = try await ChannelOpener.open(byteSource)
                transition(to: .waitingForFix(source: source.description))
            } catch {
                lastProblem = error.description
                transition(to: .failed(source: source.description, message: error.description))
                self.source = nil
                throw error
            }
        }
        let session = LocationSession(
            source: source, manager: self, policy: reconnectPolicy, silenceTimeout: silenceTimeout,
            timeline: Timeline(appSingletons.clock))
        self.session = Task { [firstChannel] in await session.run(firstChannel: firstChannel) }
    }

    /// Every state change from now on, starting with the current state, in order. The stream does not finish when
    /// the manager shuts down, since it can be started again; the subscriber ends it by cancelling its task
    /// or dropping it.
    public func stateChanges() -> AsyncStream<LocationState> {
        states.subscribe(initial: state)
    }

    /// A fresh stream of the fixes delivered from now on, keeping at most `bufferSize` unread fixes.
    ///
    /// A subscriber that reads too slowly loses its oldest fixes and is told how many in the next
    /// ``LocationUpdate``; it never stalls the manager or the other subscribers. A subscriber that stops iterating
    /// (drops the sequence, or its task is cancelled) is removed.
    public func updates(bufferSize: Int = 64) -> LocationUpdates {
        let subscription = BoundedSubscription<Fix>(capacity: bufferSize)
        fixes.add(subscription)
        return LocationUpdates(subscription: subscription)
    }

    /// The number of live ``updates(bufferSize:)`` subscribers.
    public var subscriberCount: Int { fixes.count }

    /// Makes `fix` the latest fix, updates the state, and sends the fix to every subscriber of ``updates(bufferSize:)``
    /// and ``events(bufferSize:includingSentences:holdingSource:)``, after the state change it brings.
    ///
    /// The common case, another fix while fixed with nothing to clear, costs one observable mutation: the state and
    /// the last problem are read from their storage (`_state`, `_lastProblem`, which the `@Observable` macro keeps
    /// behind the observable properties), since `deliver` is no observer and need not register its reads.
    open func deliver(_ fix: Fix) {
        // `withMutation`'s steps without its closure, which took the fix in by copying it twice. The stores are
        // written in both branches: one flag tested before and after them cost the registrar's path 21 instructions.
        if lastFixMayBeTracked {
            _$observationRegistrar.willSet(self, keyPath: LocationManager.lastFixPath)
            latestFix = fix
            deliveredFixes += 1
            _$observationRegistrar.didSet(self, keyPath: LocationManager.lastFixPath)
        } else {
            latestFix = fix
            deliveredFixes += 1
        }
        if let staleOrigin {
            lastFixTime = staleOrigin.duration(to: .now)
        } else if let staleTimeline {
            lastFixTime = staleTimeline.now
        }
        // Another fix while fixed leaves the state alone without building a new one to compare.
        let staysFixed = if case .fixed = _state { fix.mode.hasPosition } else { false }
        if !staysFixed {
            let name = source?.description ?? "no source"
            transition(to: fix.mode.hasPosition ? .fixed(source: name) : .waitingForFix(source: name))
        }
        if staleWatch == nil, case .fixed = _state { watchForStaleness() }
        if _lastProblem != nil, fix.mode.hasPosition { lastProblem = nil }
        fixes.send(fix)
        if !eventFanOut.isEmpty { sendEvent(fix) }
    }

    /// Sends `fix` to the subscribers of ``events(bufferSize:includingSentences:holdingSource:)``. Out of line and called only
    /// while there is one: building the event inside `deliver` copied the fix on every call.
    @inline(never)
    private func sendEvent(_ fix: Fix) {
        eventFanOut.send(.fix(fix))
    }

    /// Makes `sky` the latest satellite view and sends it to the subscribers of
    /// ``events(bufferSize:includingSentences:holdingSource:)``.
    open func deliver(_ sky: SkyView) {
        satellites = sky
        if !eventFanOut.isEmpty { eventFanOut.send(.satellites(sky)) }
    }

    /// Moves to `newState` and tells the subscribers of ``stateChanges()`` and
    /// ``events(bufferSize:includingSentences:holdingSource:)``; repeating the current state does nothing.
    ///
    /// The manager's own paths call it as a source connects, fixes and fails; a mock subclass calls it to play
    /// those states, and delivers fixes with ``deliver(_:)-(Fix)``, as the real manager does.
    public func transition(to newState: LocationState) {
        guard newState != state else { return }
        state = newState
        states.send(newState)
        eventFanOut.send(.state(newState))
    }

    /// The source ran out for good (a file's end): nothing runs any more.
    func sessionEnded() {
        source = nil
        lastProblem = nil
        transition(to: .idle)
    }

    /// Records what went wrong with the source, or clears it with `nil`.
    func noteProblem(_ message: String?) {
        lastProblem = message
    }

    /// Starts ``configuredSource``, if any.
    open func start() async throws {
        if let configuredSource { try await start(configuredSource) }
    }

    /// Stops the source and waits until it is closed; subscribers keep their streams, and ``start(_:)`` or
    /// ``start()`` may run a source again.
    open func shutdown() async {
        let running = session
        session = nil
        running?.cancel()
        await running?.value
        // After the session has ended: a fix it delivered while this waited may have armed a new staleness watch.
        staleWatch?.cancel()
        forgetStaleWatch()
        source = nil
        transition(to: .idle)
    }

    /// Starts the watch that turns a fixed state stale when no fix came for ``staleAfter``, and stamps the fix that
    /// starts it.
    ///
    /// The watch runs only while the state is fixed: it sleeps until the last fix is ``staleAfter`` old, goes on
    /// sleeping if a newer fix came meanwhile, and ends once the state is stale or no longer fixed; the next fix
    /// starts it again. An idle manager therefore has no timer at all.
    ///
    /// Its time is the registry's clock when the fix that started it came, and the fixes after it are stamped on that
    /// clock until it ends, so a test that installs a manual clock decides when a fix turns stale, to the nanosecond.
    /// Only a watch's fixes are stamped: a fix while no watch runs needs no time.
    private func watchForStaleness() {
        let clock = appSingletons.clock
        let timeline: Timeline
        if clock is ContinuousClock {
            let origin = ContinuousClock.Instant.now
            staleOrigin = origin
            timeline = Timeline(continuousFrom: origin)
        } else {
            timeline = Timeline(clock)
            staleTimeline = timeline
        }
        lastFixTime = .zero
        staleWatch = Task {
            defer { if !Task.isCancelled { forgetStaleWatch() } }
            while case .fixed(let name) = state {
                let deadline = lastFixTime + staleAfter
                if deadline <= timeline.now {
                    transition(to: .stale(source: name))
                    return
                }
                do { try await timeline.sleep(until: deadline) } catch { return }
            }
        }
    }

    /// Drops the staleness watch and its time; the next fix that makes the state fixed starts a new one.
    private func forgetStaleWatch() {
        staleWatch = nil
        staleOrigin = nil
        staleTimeline = nil
    }
}
