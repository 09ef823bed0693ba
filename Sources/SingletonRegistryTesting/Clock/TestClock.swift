import SingletonRegistry
import Testing

/// A clock whose time moves only when the test moves it: ``advance(by:)`` and ``run()``.
///
/// Install it as the registry's clock, `.singletons { $0.clock = clock }`, and timed behaviour runs in no real time
/// and at exact instants. Sleepers wake in the order of their deadlines (in the order they went to sleep for equal
/// deadlines), each at its own deadline: `now` is that deadline while it runs. A cancelled sleeper wakes at once
/// with `CancellationError`. When the scope that installed it ends, sleepers that were never woken are reported as
/// an issue of the test, and cancelled.
///
/// After waking a sleeper, ``advance(by:)`` waits for one job of its own to run on `RegistryActor`. A sleeper
/// isolated to that actor was enqueued there before that job, so it has run up to its next suspension before the
/// next sleeper wakes and before ``advance(by:)`` returns: no timed step of a manager is left half-run. (Code that
/// sleeps on another executor gets no such promise; the clock wakes it in order, but cannot know when it has run.)
public final class TestClock: CallerResumingClock, Sendable {
    /// A point in the clock's time: a duration since the clock was made.
    public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
        /// The time since the clock was made.
        public var offset: Duration

        /// An instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        /// `+1.5 seconds`: the offset from the clock's start.
        public var description: String { "+\(offset)" }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        /// Resumed with the continuation the waker waits on until the sleeper runs again.
        var continuation: CheckedContinuation<CheckedContinuation<Void, Never>?, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Sleeper] = []
        /// Tasks waiting in ``sleepers(atLeast:)``, with the count each waits for.
        var watchers: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Removes and returns the watchers whose count the sleepers have reached.
        mutating func satisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            let count = sleepers.count
            let ready = watchers.filter { $0.count <= count }.map(\.continuation)
            watchers.removeAll { $0.count <= count }
            return ready
        }
    }

    private let state = SanitizerVisibleMutex(State())

    /// A clock at its start, with no sleeper.
    public init() {}

    /// The current instant.
    public var now: Instant { state.withLock { $0.now } }
    /// The clock has no resolution limit.
    public var minimumResolution: Duration { .zero }

    /// The deadlines of the sleepers not yet woken, earliest first.
    public var pendingDeadlines: [Instant] {
        state.withLock { $0.sleepers.map(\.deadline).sorted() }
    }

    /// Suspends until the clock reaches `deadline`, at once when it has; throws `CancellationError` when the task is
    /// cancelled first.
    public nonisolated(nonsending) func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleep(until: deadline)
    }

    /// Suspends for `duration` of the clock's time, and resumes on the caller's executor.
    public nonisolated(nonsending) func sleep(for duration: Duration, tolerance: Duration? = nil) async throws {
        try await sleep(until: now.advanced(by: duration))
    }

    /// Suspends for `duration` of the clock's time and resumes on the caller's executor: the registry's timed code
    /// sleeps through this, so that a sleeper isolated to `RegistryActor` is enqueued there the moment it is woken.
    package nonisolated(nonsending) func sleepResumingCaller(for duration: Duration) async throws {
        try await sleep(until: now.advanced(by: duration))
    }

    private nonisolated(nonsending) func sleep(until deadline: Instant) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let waker = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<CheckedContinuation<Void, Never>?, any Error>) in
                let (resumeNow, ready) = state.withLock {
                    state -> (Result<CheckedContinuation<Void, Never>?, any Error>?, [CheckedContinuation<Void, Never>])
                    in
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(nil), []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, state.satisfiedWatchers())
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
                for watcher in ready { watcher.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock {
                state -> CheckedContinuation<CheckedContinuation<Void, Never>?, any Error>? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
        // Back on the caller's executor (this function is nonsending): the waker may go on, and its next job on
        // that executor runs after this sleeper's.
        waker?.resume()
    }

    /// Returns once at least `count` sleepers wait on the clock, or the task is cancelled: how a test knows that the
    /// code it drives has gone to sleep, without waiting for a duration.
    public func sleepers(atLeast count: Int) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.sleepers.count >= count || Task.isCancelled { return true }
                    state.watchers.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let watcher = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.watchers.remove(at: index).continuation
            }
            watcher?.resume()
        }
    }

    /// Moves time forward by `duration`, waking each sleeper whose deadline comes within it, in deadline order, at
    /// its deadline; then sets the time to the end of `duration`.
    public func advance(by duration: Duration) async {
        let end = now.advanced(by: duration)
        await advance(to: end)
    }

    /// Moves time forward until no sleeper is left, waking each at its deadline; a sleeper that goes back to
    /// sleep is woken again. Returns when nothing sleeps on the clock.
    public func run() async {
        while let next = pendingDeadlines.first {
            await advance(to: next)
        }
    }

    /// Wakes the sleepers with a deadline up to `end`, one at a time, then sets the time to `end`.
    public func advance(to end: Instant) async {
        while true {
            let woken = state.withLock { state -> Sleeper? in
                guard
                    let index = state.sleepers.indices.min(by: {
                        Self.wakesBefore(state.sleepers[$0], state.sleepers[$1])
                    }),
                    state.sleepers[index].deadline <= end
                else {
                    if state.now < end { state.now = end }
                    return nil
                }
                let sleeper = state.sleepers.remove(at: index)
                if state.now < sleeper.deadline { state.now = sleeper.deadline }
                return sleeper
            }
            guard let woken else { return }
            await withCheckedContinuation { (running: CheckedContinuation<Void, Never>) in
                woken.continuation.resume(returning: running)
            }
            await Self.settle()
        }
    }

    /// Cancels every sleeper not yet woken and returns their deadlines.
    @discardableResult
    public func cancelSleepers() -> [Instant] {
        let sleepers = state.withLock { state in
            defer { state.sleepers.removeAll() }
            return state.sleepers
        }
        for sleeper in sleepers { sleeper.continuation.resume(throwing: CancellationError()) }
        return sleepers.map(\.deadline).sorted()
    }

    private static func wakesBefore(_ lhs: Sleeper, _ rhs: Sleeper) -> Bool {
        lhs.deadline == rhs.deadline ? lhs.id < rhs.id : lhs.deadline < rhs.deadline
    }

    /// Runs one job on `RegistryActor`, after the jobs already enqueued there (a woken sleeper's, among them).
    @RegistryActor
    private static func settle() async {}
}

extension TestClock: ManagedSingleton {
    /// Nothing to start.
    @RegistryActor
    public func start() async throws {}

    /// Reports the sleepers never woken as an issue of the running test, and cancels them so that nothing waits for
    /// ever; an override scope calls this when it ends.
    @RegistryActor
    public func shutdown() async {
        let deadlines = cancelSleepers()
        guard !deadlines.isEmpty else { return }
        let list = deadlines.map(\.description).joined(separator: ", ")
        let message =
            "TestClock: \(deadlines.count) sleeper(s) never woken (deadlines \(list), now \(now)): advance the clock "
            + "or run() it before the test ends"
        Issue.record(Comment(rawValue: message))
    }
}
