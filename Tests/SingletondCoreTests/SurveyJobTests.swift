import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import SingletondCore
import TestSupport
import Testing

/// The survey job on a test clock: a 60 s survey reports its progress once a second, exactly, and ends after 60 s of
/// the registry's clock with the figures of the fixes it saw.
@Suite(.hangBound) struct SurveyJobTests {
    @Test(.singletons { $0.clock = TestClock() }) @RegistryActor
    func aSixtySecondSurveyReportsEachSecondAndEndsAtSixtySeconds() async throws {
        let clock = try #require(appSingletons.clock as? TestClock)
        let location = appSingletons.locationManager
        location.staleAfter = .seconds(3_600)
        let tasks = LongTaskManager()
        var states = tasks.stateChanges().makeAsyncIterator()
        #expect(await states.next(isolation: #isolation) == .idle)
        let logger = LogWriter(minimumLevel: .error, journalFormat: false, clock: ContinuousClock())
        let survey = Task { try await tasks.run(SurveyJob.make(seconds: 60, logger: logger)) }
        #expect(await states.next(isolation: #isolation) == .running(name: "survey", progress: 0))
        for second in 1...60 {
            // The survey's sleep, and from the first fix on the staleness watch's, an hour out.
            await clock.sleepers(atLeast: second == 1 ? 1 : 2)
            #expect(clock.pendingDeadlines.first == TestClock.Instant(offset: .seconds(second)))
            location.deliver(Fix(mode: .threeD, latitude: 47.5, longitude: 8.5, altitudeHAE: 400))
            await clock.advance(by: .seconds(1))
            let progress = Double(second) / 60
            #expect(await states.next(isolation: #isolation) == .running(name: "survey", progress: progress))
        }
        let result = try await survey.value
        #expect(await states.next(isolation: #isolation) == .finished(name: "survey"))
        #expect(result.elapsedSeconds == 60)
        #expect(result.requestedSeconds == 60)
        #expect(!result.cancelled)
        #expect(clock.now == TestClock.Instant(offset: .seconds(60)))
        #expect(clock.pendingDeadlines.count == 1, "only the staleness watch, an hour out")
        await location.shutdown()
    }
}
