import SingletonRegistry
import SingletonRegistryTesting
import Synchronization
import Testing

/// The trait's other spellings: one key and its value, and a configuration that suspends and throws.
@Suite struct TraitFactoriesTests {
    enum NameKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }

    enum SerialKey: SingletonKey {
        static var liveValue: Int { 0 }
        static var testValue: Int { 0 }
    }

    struct ConfigurationFailed: Error, Equatable {}

    /// How many serials were handed out.
    static let serials = Atomic(0)
    static func nextSerial() -> Int { serials.add(1, ordering: .relaxed).newValue }

    @Test(.singleton(NameKey.self, "replaced"))
    func oneKeyIsReplaced() async {
        #expect(await appSingletons[NameKey.self] == "replaced")
    }

    /// The value is made for each test the trait scopes, not once for the trait.
    @Test func eachTestGetsAValueMadeForIt() async throws {
        let trait = SingletonsTrait.singleton(SerialKey.self, Self.nextSerial())
        let test = try #require(Test.current)
        let seen = SanitizerVisibleMutex<[Int]>([])
        for _ in 0..<2 {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let serial = await appSingletons[SerialKey.self]
                seen.withLock { $0.append(serial) }
            }
        }
        let serials = seen.withLock { $0 }
        #expect(serials.count == 2 && serials[0] != 0 && serials[0] != serials[1], "\(serials)")
    }

    @Test(
        .singletons {
            await Task.yield()
            $0[NameKey.self] = "configured after a suspension"
        })
    func anAsyncConfigurationReplacesValues() async {
        #expect(await appSingletons[NameKey.self] == "configured after a suspension")
    }

    /// A configuration that throws fails the test with its error, and the test body does not run.
    @Test func aThrownConfigurationErrorFailsTheTestBeforeItsBody() async throws {
        let trait = SingletonsTrait.singletons { _ in
            await Task.yield()
            throw ConfigurationFailed()
        }
        let test = try #require(Test.current)
        let bodyRan = Atomic(false)
        await #expect(throws: ConfigurationFailed()) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                bodyRan.store(true, ordering: .relaxed)
            }
        }
        let ran = bodyRan.load(ordering: .relaxed)
        #expect(!ran)
    }
}
