import Dispatch
import SingletonRegistry
import SingletonRegistryTesting
import Testing

/// Reads of an overridden manager from outside the override's task tree are detected, not silently live.
///
/// Serialized and overriding only `locationManager`, which no other suite here overrides: an escaped read cannot be
/// attributed to one test, so it is recorded on every active scope that replaced the manager read.
@Suite(.serialized, .timeLimit(.minutes(1))) struct EscapedReadTests {
    @RegistryActor
    static func readLocationManager() -> ObjectIdentifier {
        ObjectIdentifier(appSingletons.locationManager)
    }

    @Test func aDetachedTaskReadIsRecorded() async throws {
        await EscapedReadDetection.enable()
        let escapes = try await withSingletons({ $0.locationManager = LocationManager() }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            let seen = await Task.detached { await Self.readLocationManager() }.value
            #expect(seen == ObjectIdentifier(await LocationManager.live), "a detached task sees the live manager")
            return await scope.escapes
        }
        #expect(escapes == [EscapedRead(key: .locationManager)])
    }

    @Test func aDispatchCallbackReadIsRecorded() async throws {
        await EscapedReadDetection.enable()
        let escapes = try await withSingletons({ $0.locationManager = LocationManager() }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    Task {
                        _ = await Self.readLocationManager()
                        done.resume()
                    }
                }
            }
            return await scope.escapes
        }
        #expect(escapes == [EscapedRead(key: .locationManager)])
    }

    @Test func readsInsideTheTaskTreeAreNotEscapes() async throws {
        await EscapedReadDetection.enable()
        let escapes = try await withSingletons({ $0.locationManager = LocationManager() }) {
            let scope = try #require(await SingletonScope.ofCurrentTask)
            _ = await Self.readLocationManager()
            _ = await Task { await Self.readLocationManager() }.value
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = await Self.readLocationManager() }
            }
            return await scope.escapes
        }
        #expect(escapes.isEmpty)
    }

    @Test func theTraitReportsAnEscapeAsATestIssue() async throws {
        let trait = SingletonsTrait.singletons { $0.locationManager = LocationManager() }
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                _ = await Task.detached { await Self.readLocationManager() }.value
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("escaped the test's task tree") }
        }
    }
}
