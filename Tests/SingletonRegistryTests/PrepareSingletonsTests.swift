import SingletonRegistry
import SingletonRegistryTesting
import Testing

/// A value set on the process-wide container after it was read is reported: a warning through
/// `RegistryWarnings.handler` outside every test, an issue of the test that prepares a value it had read.
///
/// The process-wide path is taken from detached tasks, which run for no test and in no scope, as a program's startup
/// code does; each test reads keys of its own, declared here, that no other test touches.
@Suite struct PrepareSingletonsTests {
    enum ReadFirstKey: SingletonKey { static var liveValue: String { "live" } }
    enum PreparedKey: SingletonKey { static var liveValue: String { "live" } }
    enum PreparedLateKey: SingletonKey { static var liveValue: String { "live" } }
    enum DeclaredKey: SingletonKey { static var liveValue: String { "live" } }
    enum PartKey: SingletonKey {
        struct Settings { var units = "imperial", station = "home" }
        static var liveValue: Settings { Settings() }
    }
    enum TestReadKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }

    /// The warnings the handler received, from the first test that installed the collector on.
    @RegistryActor static var warnings: [String] = []
    @RegistryActor static var collecting = false

    /// Makes the handler collect warnings into ``warnings`` (once for the process: tests run in parallel).
    @RegistryActor static func collect() {
        guard !collecting else { return }
        collecting = true
        RegistryWarnings.handler = { PrepareSingletonsTests.warnings.append($0) }
    }

    /// The warnings about the accessor `name`.
    @RegistryActor static func warnings(about name: String) -> [String] {
        warnings.filter { $0.hasPrefix("appSingletons.\(name) was set after it was read") }
    }

    @Test func aValueSetProcessWideAfterItWasReadIsWarnedOnceAndTakesEffect() async {
        await Self.collect()
        let values = await withLiveSingletons {
            await Task { @RegistryActor in
                let first = appSingletons[ReadFirstKey.self]
                appSingletons[ReadFirstKey.self] = "set late"
                let second = appSingletons[ReadFirstKey.self]
                appSingletons.restoreLiveValue(of: ReadFirstKey.self)
                appSingletons[ReadFirstKey.self] = "set again"
                return [first, second, appSingletons[ReadFirstKey.self]]
            }.value
        }
        #expect(values == ["live", "set late", "set again"])
        let warnings = await Self.warnings(about: "readFirst")
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("prepareSingletons { $0.readFirst = ... }") == true)
    }

    @Test func aValuePreparedBeforeAnyReadIsNotWarned() async {
        await Self.collect()
        let values = await withLiveSingletons {
            await Task { @RegistryActor in
                prepareSingletons {
                    $0[PreparedKey.self] = "prepared"
                    $0[PartKey.self].units = "metric"  // read inside the preparation: no earlier read
                }
                return [appSingletons[PreparedKey.self], appSingletons[PartKey.self].units]
            }.value
        }
        #expect(values == ["prepared", "metric"])
        #expect(await Self.warnings(about: "prepared").isEmpty)
        #expect(await Self.warnings(about: "part").isEmpty)
    }

    @Test func aValuePreparedAfterItWasReadOrDeclaredIsWarned() async {
        await Self.collect()
        let values = await withLiveSingletons {
            await Task { @RegistryActor in
                let read = appSingletons[PreparedLateKey.self]
                appSingletons.declare(DeclaredKey.self)
                prepareSingletons {
                    $0[PreparedLateKey.self] = "prepared"
                    $0[DeclaredKey.self] = "prepared"
                }
                return [read, appSingletons[PreparedLateKey.self], appSingletons[DeclaredKey.self]]
            }.value
        }
        #expect(values == ["live", "prepared", "prepared"])
        #expect(await Self.warnings(about: "preparedLate").count == 1)
        #expect(await Self.warnings(about: "declared").count == 1)
    }

    @RegistryActor static func readThenPrepare() -> String {
        _ = appSingletons[TestReadKey.self]
        prepareSingletons { $0[TestReadKey.self] = "prepared" }
        return appSingletons[TestReadKey.self]
    }

    @Test func aTestThatPreparesAValueItReadHasAnIssue() async {
        await withKnownIssue {
            #expect(await Self.readThenPrepare() == "prepared")
        } matching: { issue in
            "\(issue.kind)".contains("appSingletons.testRead was set after it was read")
        }
    }

    @RegistryActor static func readThenSet() -> String {
        _ = appSingletons[TestReadKey.self]
        appSingletons[TestReadKey.self] = "set"
        return appSingletons[TestReadKey.self]
    }

    /// A test sets its own values freely, read or not: only a preparation is checked there.
    @Test func aTestSetsAValueItReadWithoutAnIssue() async {
        #expect(await Self.readThenSet() == "set")
    }
}
