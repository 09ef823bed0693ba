import SingletonRegistry

/// The seed's mock, ported: it overrides `doLongTask()` and finishes without real work.
final class LongTaskManagerMock: LongTaskManager {
    /// Tells mocks apart in the parallel-override tests.
    let tag: Int
    private(set) var calls = 0

    nonisolated init(tag: Int = 0) {
        self.tag = tag
        super.init()
    }

    override func doLongTask() async throws {
        calls += 1
        try await run(LongTask(name: "mock") { progress in await progress.report(1) })
    }
}
