import SingletonRegistry
import Testing

@testable import SingletondCore

/// A client's PROGRESS lines are its own survey's: after a cancel, the winding-down survey's states are skipped.
@Suite struct SurveyProgressFilterTests {
    static func verdicts(_ states: [LongTaskState], cancelledRunWindsDown: Bool) -> [SurveyProgressFilter.Verdict] {
        var filter = SurveyProgressFilter(cancelledRunWindsDown: cancelledRunWindsDown)
        return states.map { filter.verdict(on: $0) }
    }

    @Test func aSurveyAskedForWhileACancelledOneWindsDownGetsOnlyItsOwnProgress() {
        let states: [LongTaskState] = [
            .running(name: "survey", progress: 0.3), .cancelled(name: "survey"), .running(name: "survey", progress: 0),
            .running(name: "survey", progress: 0.5), .finished(name: "survey"),
        ]
        #expect(
            Self.verdicts(states, cancelledRunWindsDown: true) == [.skip, .skip, .forward(0), .forward(0.5), .end])
    }

    @Test func aSurveyStartedOrJoinedGetsItsProgressUntilItEnds() {
        let states: [LongTaskState] = [
            .idle, .running(name: "survey", progress: 0), .running(name: "survey", progress: 0.5),
            .cancelled(name: "survey"),
        ]
        #expect(Self.verdicts(states, cancelledRunWindsDown: false) == [.skip, .forward(0), .forward(0.5), .end])
    }
}
