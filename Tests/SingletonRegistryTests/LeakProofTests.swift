import GNSSLocation
import SingletonRegistry
import SingletonRegistryTesting
import TestSupport
import Testing

/// When an override scope ends, work its managers started is cancelled and awaited: nothing runs on.
@Suite(.hangBound) struct LeakProofTests {
    /// A job that never ends on its own: only cancellation stops it.
    static func endless(_ started: AsyncStream<Void>.Continuation) -> LongTask<Void> {
        LongTask(name: "endless") { _ in
            started.yield()
            while true { try await Task.sleep(for: .seconds(3_600)) }
        }
    }

    @Test func workStartedInAScopeEndsWithIt() async throws {
        let mock = RecordingLongTaskManager()
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        await withSingletons({ $0.longTaskManager = mock }) {
            Task { try await appSingletons.longTaskManager.run(Self.endless(signal)) }
            for await _ in started { break }
        }
        #expect(await mock.state == .cancelled(name: "endless"))
        #expect(await mock.shutdownCalls == 1)
    }

    @Test func theTraitEndsWorkWhenTheTestEnds() async throws {
        let mock = RecordingLongTaskManager()
        let trait = SingletonsTrait.singletons { $0.longTaskManager = mock }
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            Task { try await appSingletons.longTaskManager.run(Self.endless(signal)) }
            for await _ in started { break }
        }
        #expect(await mock.state == .cancelled(name: "endless"))
    }

    @Test func managersTheScopeDidNotReplaceAreLeftRunning() async throws {
        let outer = RecordingLongTaskManager()
        try await withSingletons({ $0.longTaskManager = outer }) {
            await withSingletons({ $0.locationManager = LocationManager() }) {}
            #expect(await outer.shutdownCalls == 0)
            try await appSingletons.longTaskManager.doLongTask()
        }
        #expect(await outer.shutdownCalls == 1)
        #expect(await outer.doLongTaskCalls == 1)
    }
}
