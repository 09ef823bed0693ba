import SingletonRegistry
import TestSupport
import Testing

/// A scope shuts down what it replaced however many types of value the process has seen before.
@Suite(.hangBound) struct ManyValueTypesTests {
    /// A type of value of its own for every nesting depth.
    struct Nest<Inner: Sendable>: Sendable { let inner: Inner }
    /// A key of its own for every type of value.
    enum NestedKey<Value: Sendable>: SingletonKey { static var liveValue: Value? { nil } }

    /// Replaces the value of `value`'s key, and those of `depth` types nested around it, on `singletons`.
    @RegistryActor
    static func replaceNested<Value: Sendable>(_ value: Value, depth: Int, in singletons: AppSingletons) {
        singletons[NestedKey<Value>.self] = value
        if depth > 0 { replaceNested(Nest(inner: value), depth: depth - 1, in: singletons) }
    }

    /// Each round brings 101 types of value the registry has not asked about yet, so that what it learnt of the
    /// manager's type in the first round has to survive the growth of what it remembers.
    @Test @RegistryActor
    func aScopeShutsDownItsManagerAfterScopesOfManyOtherTypesOfValue() async throws {
        let manager = SyncManager()
        try await manager.start()
        await withSingletons({
            Self.replaceNested(1, depth: 100, in: $0)
            $0.syncManager = manager
        }) {}
        #expect(!manager.isRunning, "the first scope's exit shut the replaced manager down")

        try await manager.start()
        await withSingletons({
            Self.replaceNested("two", depth: 100, in: $0)
            $0.syncManager = manager
        }) {}
        #expect(!manager.isRunning, "the second scope's exit shut it down too")
    }
}
