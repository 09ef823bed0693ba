import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import TestSupport
import Testing

/// The registry starts its managers in the order it came to hold them and stops them in reverse, awaiting each.
@Suite(.hangBound) struct LifecycleTests {
    /// Lifecycle calls suspend a few times before returning, so a registry that did not await each manager
    /// before the next would interleave the journal's entries.
    static func slowStep(_ journal: Journal, _ name: String) async {
        journal.write("\(name) begins")
        for _ in 0..<20 { await Task.yield() }
        journal.write("\(name) ends")
    }

    final class LocationProbe: LocationManager {
        let journal: Journal
        let failsToStart: Bool
        init(_ journal: Journal, failsToStart: Bool = false) {
            self.journal = journal
            self.failsToStart = failsToStart
            super.init()
        }
        override func start() async throws {
            await LifecycleTests.slowStep(journal, "start location")
            if failsToStart { throw SourceFailure() }
        }
        override func shutdown() async { await LifecycleTests.slowStep(journal, "stop location") }
    }

    final class LongTaskProbe: LongTaskManager {
        let journal: Journal
        let failsToStart: Bool
        init(_ journal: Journal, failsToStart: Bool = false) {
            self.journal = journal
            self.failsToStart = failsToStart
            super.init()
        }
        override func start() async throws {
            await LifecycleTests.slowStep(journal, "start long task")
            if failsToStart { throw SourceFailure() }
        }
        override func shutdown() async { await LifecycleTests.slowStep(journal, "stop long task") }
    }

    struct SourceFailure: Error {}

    @Test @RegistryActor
    func startsInDependencyOrderAndStopsInReverse() async throws {
        let journal = Journal()
        let singletons = AppSingletons {
            $0.locationManager = LocationProbe(journal)
            $0.longTaskManager = LongTaskProbe(journal)
        }
        try await singletons.start()
        await singletons.shutdown()
        #expect(
            journal.entries == [
                "start location begins", "start location ends", "start long task begins", "start long task ends",
                "stop long task begins", "stop long task ends", "stop location begins", "stop location ends",
            ])
    }

    @Test @RegistryActor
    func aFailedStartStopsWhatWasStarted() async {
        let journal = Journal()
        let singletons = AppSingletons {
            $0.locationManager = LocationProbe(journal)
            $0.longTaskManager = LongTaskProbe(journal, failsToStart: true)
        }
        await #expect(throws: SourceFailure.self) { try await singletons.start() }
        #expect(
            journal.entries == [
                "start location begins", "start location ends", "start long task begins", "start long task ends",
                "stop location begins", "stop location ends",
            ])
    }

    @Test @RegistryActor
    func shutdownCancelsAndAwaitsARunningJob() async throws {
        let manager = LongTaskManager()
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        let run = Task {
            try await manager.run(
                LongTask(name: "endless") { _ in
                    signal.yield()
                    while true { try await Task.sleep(for: .seconds(3_600)) }
                })
        }
        for await _ in started { break }
        await AppSingletons { $0.longTaskManager = manager }.shutdown()
        #expect(manager.state == .cancelled(name: "endless"), "shutdown returned before the job ended")
        await #expect(throws: CancellationError.self) { try await run.value }
    }
}
