// The code quoted in README.md. Keep the two in step: the README copies these lines verbatim.
import SingletonRegistry
import SingletonRegistryTesting
import Testing

// README: using the registry
@RegistryActor
func surveyIfIdle() async throws {
    let tasks = appSingletons.longTaskManager
    guard !tasks.state.isRunning else { return }
    try await tasks.doLongTask()
}

// README: overriding it in a Swift Testing test
final class InstantLongTasks: LongTaskManager {
    override func doLongTask() async throws {
        try await run(LongTask(name: "instant") { progress in await progress.report(1) })
    }
}

@Test(.singletons { $0.longTaskManager = InstantLongTasks() })
func surveyRunsOnTheOverride() async throws {
    try await surveyIfIdle()
    #expect(await appSingletons.longTaskManager.isTaskDone)
}

@Test func overrideForOneBlock() async throws {
    let mock = InstantLongTasks()
    try await withSingletons({ $0.longTaskManager = mock }) {
        try await surveyIfIdle()
    }
    #expect(await mock.isTaskDone)
}
