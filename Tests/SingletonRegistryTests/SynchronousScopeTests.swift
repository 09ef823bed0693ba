@_spi(Testing) import SingletonRegistry
import SingletonRegistryTesting
import Testing

/// The synchronous `withSingletons`, for a body on `RegistryActor` that cannot suspend: its replacements hold for
/// the body and the tasks it starts, and end with it; a scope object kept for reuse (`ScopePool`) never shows one
/// scope's values to a task of another.
@Suite(.timeLimit(.minutes(1))) struct SynchronousScopeTests {
    enum StationKey: SingletonKey {
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
        let inside = withSingletons({ $0[StationKey.self] = "replaced" }) { appSingletons[StationKey.self] }
        return (inside, appSingletons[StationKey.self])
    }

    @Test(.singletons { _ in })
    func theBodyReadsTheReplacementAndNothingAfterItDoes() async {
        let (inside, after) = await Self.readInAndAfterAScope()
        #expect(inside == "replaced")
        #expect(after == "test")
    }

    @RegistryActor
    static func startReader() -> (task: Task<String, Never>, inside: String) {
        withSingletons({ $0[StationKey.self] = "replaced" }) {
            (Task { @RegistryActor in appSingletons[StationKey.self] }, appSingletons[StationKey.self])
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
            try withSingletons({ $0[StationKey.self] = "replaced" }) { throw Failure() }
        } catch {}
        return appSingletons[StationKey.self]
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

    /// Scope A ends and is kept; scope B, entered next with no suspension between, reuses A's object (checked by
    /// identity). A read with A's token, captured inside A, finds neither A's value nor B's.
    @RegistryActor
    static func readThroughACaptureOfTheScopeBefore() -> (sameObject: Bool, seen: String) {
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
        #expect(sameObject, "the second scope reuses the first's object")
        #expect(seen == "test")
    }
}
