@_spi(Testing) import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// The synchronous `withSingletons`, for a body on `RegistryActor` that cannot suspend: its replacements hold for
/// the body and the tasks it starts, and end with it; a scope that ended never shows its values, nor a later scope's,
/// to a task that captured it.
@Suite(.hangBound) struct SynchronousScopeTests {
    enum SyncStationKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }

    /// A key read only by ``aReusedScopeShowsNothingToACaptureOfTheScopeBeforeIt``.
    enum ReusedKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }

    /// A manager whose shutdown a test awaits.
    final class Station: ManagedSingleton {
        let stopped: AsyncStream<Void>.Continuation
        nonisolated init(stopped: AsyncStream<Void>.Continuation) { self.stopped = stopped }
        func start() async throws {}
        func shutdown() async { stopped.yield() }
    }

    enum StationManagerKey: SingletonKey {
        static var liveValue: Station? { nil }
        static var testValue: Station? { nil }
    }

    @RegistryActor
    static func readInAndAfterAScope() -> (inside: String, after: String) {
        let inside = withSingletons({ $0[SyncStationKey.self] = "replaced" }) { appSingletons[SyncStationKey.self] }
        return (inside, appSingletons[SyncStationKey.self])
    }

    @Test(.singletons { _ in })
    func theBodyReadsTheReplacementAndNothingAfterItDoes() async {
        let (inside, after) = await Self.readInAndAfterAScope()
        #expect(inside == "replaced")
        #expect(after == "test")
    }

    @RegistryActor
    static func startReader() -> (task: Task<String, Never>, inside: String) {
        UnattributedEscapes.expect(SyncStationKey.name)  // the reader outlives the scope on purpose
        return withSingletons({ $0[SyncStationKey.self] = "replaced" }) {
            (Task { @RegistryActor in appSingletons[SyncStationKey.self] }, appSingletons[SyncStationKey.self])
        }
    }

    /// The scope ends when the body returns, before a task the body started runs: the task reads what the process
    /// has, as a task that outlives an asynchronous scope does.
    @Test(.singletons { _ in })
    func aTaskStartedInTheBodyRunsAfterTheScopeEnded() async {
        let (task, inside) = await Self.startReader()
        #expect(inside == "replaced")
        #expect(await task.value == "test")
    }

    @RegistryActor
    static func throwInAScope() -> String {
        struct Failure: Error {}
        do {
            try withSingletons({ $0[SyncStationKey.self] = "replaced" }) { throw Failure() }
        } catch {}
        return appSingletons[SyncStationKey.self]
    }

    @Test(.singletons { _ in })
    func aBodyThatThrowsEndsTheScope() async {
        #expect(await Self.throwInAScope() == "test")
    }

    @Test(.singletons { _ in })
    func aReplacedManagerIsShutDownWhenTheScopeEnds() async {
        let (stopped, signal) = AsyncStream.makeStream(of: Void.self)
        let station = Station(stopped: signal)
        await RegistryActor.run { withSingletons({ $0[StationManagerKey.self] = station }) {} }
        for await _ in stopped { break }
    }

    /// Scope A ends; scope B is entered next with no suspension between (its object may even be made in A's freed
    /// memory). A read with A's token, captured inside A, finds neither A's value nor B's.
    @RegistryActor
    static func readThroughACaptureOfTheScopeBefore() -> (sameObject: Bool, seen: String) {
        UnattributedEscapes.expect(ReusedKey.name)
        let (first, escaped) = withSingletons({ $0[ReusedKey.self] = "first" }) {
            (SingletonScope.ofCurrentTask.map(ObjectIdentifier.init), withEscapedSingletons { $0 })
        }
        return withSingletons({ $0[ReusedKey.self] = "second" }) {
            let second = SingletonScope.ofCurrentTask.map(ObjectIdentifier.init)
            return (first != nil && first == second, escaped.yield { appSingletons[ReusedKey.self] })
        }
    }

    /// No trait: its scope would enclose both scopes, and the capture's read, which escaped the second scope,
    /// would be reported against the test when the trait ends.
    @Test func aReusedScopeShowsNothingToACaptureOfTheScopeBeforeIt() async {
        let (sameObject, seen) = await Self.readThroughACaptureOfTheScopeBefore()
        _ = sameObject  // scopes are never reused; the allocator may or may not give B A's address
        #expect(seen == "test")
    }
}
