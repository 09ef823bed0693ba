import SingletonRegistry
import TestSupport
import Testing

/// Following a long task's state from code that is not on `RegistryActor`.
@Suite(.hangBound) struct LongTaskFollowingTests {
    /// A nonisolated test subscribes, sees every state of a job in order, and its loop ends when the manager shuts
    /// down: without the stream's end, the follower would wait until the time limit.
    @Test func stateChangesFromNonisolatedCodeEndWhenTheManagerShutsDown() async throws {
        let manager = LongTaskManager()
        let states = await manager.stateChanges()
        let follower = Task {
            var seen: [LongTaskState] = []
            for await state in states { seen.append(state) }
            return seen
        }
        try await manager.run(LongTask(name: "job") { progress in await progress.report(1) })
        await manager.shutdown()
        let seen = await follower.value
        #expect(seen.first == .idle)
        #expect(seen.last == .finished(name: "job"))
        #expect(await manager.isTaskDone)
    }

    /// A manager that shut down can run again, and a new subscription follows it.
    @Test func aNewSubscriptionFollowsTheManagerAfterAShutdown() async throws {
        let manager = LongTaskManager()
        await manager.shutdown()
        let states = await manager.stateChanges()
        try await manager.run(LongTask(name: "again") { progress in await progress.report(1) })
        var iterator = states.makeAsyncIterator()
        var last: LongTaskState?
        while let state = await iterator.next() {
            last = state
            if state.isTaskDone { break }
        }
        #expect(last == .finished(name: "again"))
    }
}
