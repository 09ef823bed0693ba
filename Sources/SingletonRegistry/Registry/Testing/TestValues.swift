/// The values tests read without replacing them: one set per test, made from each key's `testValue`.
///
/// A process is a test process when the test library's ``SingletonTestContext`` is linked into it; then a read
/// through ``appSingletons`` that no scope and no process-wide replacement satisfies, made by a task that runs for a
/// test, gets that test's own value. The values live in the test's trait scope, shut down when it ends, or, for a
/// test without the trait, in a container of its own here, kept for the process.
@RegistryActor
enum TestValues {
    /// The test library's context, found by name once; `nil` outside test processes.
    nonisolated static let context: (any SingletonTestContext.Type)? =
        _typeByName("24SingletonRegistryTesting19SwiftTestingContextO") as? any SingletonTestContext.Type

    /// Set by the default ``SingletonKey/testValue`` while it runs: the key declares none.
    static var fellBackToLiveValue = false

    /// The containers of tests that read values without the `.singletons` trait, by test.
    private static var containers: [SingletonTestIdentity: AppSingletons] = [:]

    /// The scope whose configure closure is running, in a test process: a read through ``appSingletons`` meanwhile
    /// (a test value that reads another key as it is made) sees what the closure set so far.
    private(set) static var configuring: AppSingletons?

    /// Makes `scope` the one being configured; returns the one that was (a scope entered inside a configure
    /// closure), for ``endConfiguring(restoring:)``.
    static func beginConfiguring(_ scope: AppSingletons) -> AppSingletons? {
        defer { configuring = scope }
        return configuring
    }

    /// Ends the configuring of the current scope, making `outer` the one being configured again.
    static func endConfiguring(restoring outer: AppSingletons?) {
        configuring = outer
    }

    /// The values read by code that carries no test (a detached task, a thread, a callback): made once for the run
    /// from their keys' test values, and kept for the process.
    static let runContainer = AppSingletons()

    /// The process-wide live values of a test process, reached only inside `withLiveSingletons`.
    static let liveStandIn = AppSingletons(processWide: ())

    /// A box of `key`'s test value for `test` (`nil`: for the run), made now; a key that declares none gives a value
    /// made from its live value, of the test's own, and the test (or the run) is told.
    static func makeBox(
        of key: any SingletonKey.Type, for test: SingletonTestIdentity?, accessor: String
    ) -> AnySingletonBox {
        func make<Key: SingletonKey>(_ key: Key.Type) -> AnySingletonBox {
            fellBackToLiveValue = false
            let value = Key.testValue
            if fellBackToLiveValue {
                fellBackToLiveValue = false
                TestReads.report(missingTestValue(Key.self, test: test, accessor: accessor))
            }
            return SingletonBox<Key>(value, isLive: false, madeForTest: true)
        }
        return make(key)
    }

    /// The container of `test`'s own values, if it has one yet.
    static func existingContainer(for test: SingletonTestIdentity) -> AppSingletons? {
        containers[test]
    }

    /// The container of `test`'s own values, for a test without the `.singletons` trait.
    static func container(for test: SingletonTestIdentity) -> AppSingletons {
        if let container = containers[test] { return container }
        let container = AppSingletons()
        containers[test] = container
        return container
    }

    /// The report of a read of a key that declares no test value, with the two fixes.
    static func missingTestValue<Key: SingletonKey>(
        _ key: Key.Type, test: SingletonTestIdentity?, accessor: String
    ) -> String {
        let keyType = String(describing: Key.self)
        guard let test else {
            return "appSingletons.\(accessor) was read in a test process by code that carries no test (a detached "
                + "task, a thread or a callback), and \(keyType) declares no testValue, so the run got a live value "
                + "of its own, made once. Declare `static var testValue` on \(keyType), or run the work inside the "
                + "test (`Task {}`, a task group, or withEscapedSingletons)."
        }
        return "appSingletons.\(accessor) was read in test \(test.name) without a replacement, and \(keyType) declares "
            + "no testValue, so the test got a live value of its own. Replace it for the test with "
            + "`.singletons { $0.\(accessor) = ... }`, or declare `static var testValue` on \(keyType)."
    }
}
