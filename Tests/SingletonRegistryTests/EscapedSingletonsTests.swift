import Dispatch
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// `withEscapedSingletons` carries a scope into a Dispatch callback: what the callback's tasks read is the scope's,
/// the test's values where it replaced nothing, and a capture used after its scope ended is reported.
@Suite(.hangBound) struct EscapedSingletonsTests {
    enum ForecastKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }

    /// A key read only by ``aCaptureUsedAfterItsScopeEndedIsReported``, so that its count is that test's alone.
    enum LateKey: SingletonKey {
        static var liveValue: String { "live" }
        static var testValue: String { "test" }
    }

    /// Runs `read` in a task started by a callback on a global Dispatch queue, inside `escaped.yield` unless
    /// `yielding` is false, and returns what it read.
    static func readOnAQueue(
        _ escaped: EscapedSingletons, yielding: Bool = true, _ read: @escaping @Sendable () async -> String
    ) async -> String {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let start = { Task { continuation.resume(returning: await read()) } }
                if yielding { _ = escaped.yield(start) } else { _ = start() }
            }
        }
    }

    @Test(.singletons { $0[ForecastKey.self] = "replaced" })
    func aDispatchCallbackReadsTheScopesReplacementThroughYield() async {
        let escaped = withEscapedSingletons { $0 }
        #expect(await Self.readOnAQueue(escaped) { await appSingletons[ForecastKey.self] } == "replaced")
    }

    @Test(.singletons { _ in })
    func aDispatchCallbackReadsTheTestsValueOfAKeyItDidNotReplace() async {
        let escaped = withEscapedSingletons { $0 }
        #expect(await Self.readOnAQueue(escaped) { await appSingletons[ForecastKey.self] } == "test")
    }

    @Test func withSingletonsCarriesItsScopeIntoACallback() async {
        let seen = await withSingletons({ $0[ForecastKey.self] = "scoped" }) {
            await Self.readOnAQueue(withEscapedSingletons { $0 }) { await appSingletons[ForecastKey.self] }
        }
        #expect(seen == "scoped")
    }

    @Test(.singletons { _ in })
    func aCaptureUsedAfterItsScopeEndedIsReported() async {
        await RegistryActor.run { UnattributedEscapes.expect(LateKey.name) }
        let escaped = await withSingletons({ $0[LateKey.self] = "scoped" }) { withEscapedSingletons { $0 } }
        let seen = await Self.readOnAQueue(escaped) { await appSingletons[LateKey.self] }
        #expect(seen != "scoped")
        #expect(await UnattributedEscapes.readsAfterScopeEnded["\(LateKey.name)"] == 1)
    }
}
