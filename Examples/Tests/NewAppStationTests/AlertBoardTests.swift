import NewAppStation
import SingletonRegistry
import SingletonRegistryTesting
import Testing

/// A manager mock written in a main-actor-by-default module: a subclass with stored properties and no isolation
/// annotation of its own, which inherits `RegistryActor` from `LongTaskManager`.
final class InstantSurvey: LongTaskManager {
    var runs = 0

    override func doLongTask() async throws {
        runs += 1
        try await run(LongTask(name: "instant survey") { progress in await progress.report(1) })
    }
}

/// The registry used from a module built with Xcode 26's new-app settings.
@Suite struct AlertBoardTests {
    @Test(.singletons { $0.alertClient = AlertClient { city in ["gale warning for \(city)"] } })
    func theBoardReadsTheTestsClient() async throws {
        let board = AlertBoard()
        try await board.load("Oslo")
        #expect(board.alerts == ["gale warning for Oslo"])
    }

    @Test(.singletons { $0.longTaskManager = InstantSurvey() })
    func mainActorCodeFollowsTheLongTaskUntilItIsDone() async throws {
        let board = AlertBoard()
        try await board.survey()
        #expect(board.surveyDone)
        let runs = await RegistryActor.run { (appSingletons.longTaskManager as? InstantSurvey)?.runs }
        #expect(runs == 1)
    }

    @Test func anEndpointTheTestDidNotReplaceIsReported() async {
        await withKnownIssue {
            // The call records the issue and throws UnimplementedEndpointError, which the board passes on.
            await #expect(throws: UnimplementedEndpointError(endpoint: "AlertClient.alerts")) {
                try await AlertBoard().load("Bergen")
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("Unimplemented: AlertClient.alerts was called") }
        }
    }
}
