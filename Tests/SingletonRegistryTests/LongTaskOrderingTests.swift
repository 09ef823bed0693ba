import Observation
import SingletonRegistry
import TestSupport
import Testing

/// Observers see every state change of the long-task manager, in order, and end on the true final state.
@Suite(.hangBound) struct LongTaskOrderingTests {
    static let runs = 2_000

    /// The transitions of `runs` jobs named `job 0`, `job 1`, ... that each report 0.5 once, after the initial idle.
    static let expectedTransitions: [LongTaskState] =
        [.idle]
        + (0..<runs).flatMap { i -> [LongTaskState] in
            [
                .running(name: "job \(i)", progress: 0), .running(name: "job \(i)", progress: 0.5),
                .finished(name: "job \(i)"),
            ]
        }

    /// The first `expectedTransitions.count` states of `changes`.
    static func firstStates(of changes: AsyncStream<LongTaskState>) async -> [LongTaskState] {
        var seen: [LongTaskState] = []
        for await state in changes {
            seen.append(state)
            if seen.count == expectedTransitions.count { break }
        }
        return seen
    }

    @Test @RegistryActor
    func everyTransitionOfThousandsOfRunsArrivesInOrder() async throws {
        let manager = LongTaskManager()
        let changes = manager.stateChanges()
        for i in 0..<Self.runs {
            try await manager.run(LongTask(name: "job \(i)") { progress in await progress.report(0.5) })
        }
        #expect(await Self.firstStates(of: changes) == Self.expectedTransitions)
        #expect(manager.isTaskDone)
    }

    /// Jobs started from tasks of different priorities: the actor runs waiting jobs by priority, so a change sent
    /// from a job of its own (the seed's `didSet { Task { ... } }`) can overtake an earlier one sent at a lower
    /// priority. The stream must still have every change in the order it happened.
    @Test @RegistryActor
    func transitionsOfJobsStartedAtMixedPrioritiesArriveInOrder() async throws {
        let manager = LongTaskManager()
        let changes = manager.stateChanges()
        let priorities: [TaskPriority] = [.background, .high, .low, .userInitiated, .medium]
        for i in 0..<Self.runs {
            try await Task(priority: priorities[i % priorities.count]) {
                try await manager.run(LongTask(name: "job \(i)") { progress in await progress.report(0.5) })
            }.value
        }
        #expect(await Self.firstStates(of: changes) == Self.expectedTransitions)
        #expect(manager.state == .finished(name: "job \(Self.runs - 1)"))
    }

    @Test @RegistryActor
    func observationsEndOnTheFinalValue() async throws {
        let manager = LongTaskManager()
        let observed = Observations { manager.state }
        let watcher = Task { @RegistryActor in
            for await state in observed where state == .finished(name: "last") { return state }
            return manager.state
        }
        for i in 0..<Self.runs {
            try await manager.run(LongTask(name: "job \(i)") { _ in })
        }
        try await manager.run(LongTask(name: "last") { _ in })
        #expect(await watcher.value == .finished(name: "last"))
        #expect(manager.isTaskDone)
    }

    @Test @RegistryActor
    func withObservationTrackingFiresOnIsTaskDone() async throws {
        let manager = LongTaskManager()
        let (fired, signal) = AsyncStream.makeStream(of: Void.self)
        withObservationTracking {
            _ = manager.isTaskDone
        } onChange: {
            signal.yield()
            signal.finish()
        }
        #expect(!manager.isTaskDone)
        try await manager.run(LongTask(name: "one") { _ in })
        var iterator = fired.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        #expect(manager.isTaskDone)
    }
}
