import SingletonRegistry
import TestSupport
import Testing

/// Joining is explicit and typed, and a run lasts only while somebody awaits it.
@Suite(.hangBound) struct LongTaskJoinTests {
    typealias Gate = LongTaskManagerTests.Gate

    @Test @RegistryActor
    func queueStartsAnotherRunOfTheSameJob() async throws {
        let gate = Gate()
        let manager = LongTaskManager()
        async let first = manager.run(gate.job(parameters: 30))
        await gate.waitUntilStarted()
        let second = Task.immediate { @RegistryActor in try await manager.run(gate.job(parameters: 30)) }
        gate.releaseSignal.finish()
        #expect(try await first == 1)
        #expect(try await second.value == 2, "queued behind the first, not joined")
    }

    @Test @RegistryActor
    func joinOrQueueJoinsTheSameJobAndQueuesAnother() async throws {
        let gate = Gate()
        let manager = LongTaskManager()
        async let first = manager.run(gate.job(named: "survey", parameters: 30))
        await gate.waitUntilStarted()
        let same = Task.immediate { @RegistryActor in
            try await manager.run(gate.job(named: "survey", parameters: 30), whenBusy: .joinOrQueue)
        }
        let other = Task.immediate { @RegistryActor in
            try await manager.run(gate.job(named: "survey", parameters: 3), whenBusy: .joinOrQueue)
        }
        gate.releaseSignal.finish()
        #expect(try await first == 1)
        #expect(try await same.value == 1, "joined the run of the same job")
        #expect(try await other.value == 2, "a survey of 3 s is another job: queued")
    }

    @Test @RegistryActor
    func aRunOfAnotherOutputTypeIsAnErrorNotAQueue() async throws {
        let gate = Gate()
        let manager = LongTaskManager()
        async let first = manager.run(gate.job(named: "survey", parameters: 30))
        await gate.waitUntilStarted()
        let voidSurvey = LongTask<Void>(name: "survey", parameters: 30) { _ in }
        await #expect(throws: LongTaskError.outputMismatch(name: "survey", running: "Int", requested: "()")) {
            try await manager.run(voidSurvey, whenBusy: .joinOrQueue)
        }
        gate.releaseSignal.finish()
        #expect(try await first == 1)
    }

    @Test @RegistryActor
    func joinOrRefuseNamesTheJobThatRuns() async throws {
        let manager = LongTaskManager()
        let (halfway, halfwaySignal) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseSignal) = AsyncStream.makeStream(of: Void.self)
        let long = LongTask(name: "survey", parameters: 30) { progress in
            await progress.report(0.5)
            halfwaySignal.yield()
            for await _ in release { break }
        }
        async let first: Void = manager.run(long, whenBusy: .joinOrRefuse)
        for await _ in halfway { break }
        let short = LongTask(name: "survey", parameters: 3) { _ in }
        await #expect(throws: LongTaskError.busy(name: "survey", parameters: 30, progress: 0.5)) {
            try await manager.run(short, whenBusy: .joinOrRefuse)
        }
        #expect(
            "\(LongTaskError.busy(name: "survey", parameters: 30, progress: 0.5))"
                == "another job is running: survey (30), 50% done")
        releaseSignal.finish()
        try await first
        try await manager.run(short, whenBusy: .joinOrRefuse)
        #expect(manager.state == .finished(name: "survey"))
    }

    @Test @RegistryActor
    func aRunIsCancelledWhenTheLastCallerAwaitingItIsCancelled() async throws {
        let gate = Gate()
        let manager = LongTaskManager()
        let changes = manager.stateChanges()
        let first = Task { @RegistryActor in try await manager.run(gate.job(), whenBusy: .joinOrQueue) }
        await gate.waitUntilStarted()
        let second = Task.immediate { @RegistryActor in try await manager.run(gate.job(), whenBusy: .joinOrQueue) }

        first.cancel()
        await #expect(throws: CancellationError.self, "a cancelled caller stops waiting at once") {
            try await first.value
        }
        #expect(manager.state == .running(name: "gated", progress: 0), "another caller still awaits the run")

        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
        for await state in changes where !state.isRunning && state != .idle {
            #expect(state == .cancelled(name: "gated"))
            break
        }
        #expect(gate.starts.load(ordering: .relaxed) == 1)
    }

    @Test @RegistryActor
    func aCallerAfterACancelStartsANewRunInsteadOfJoiningTheCancelledOne() async throws {
        let gate = Gate()
        let manager = LongTaskManager()
        let first = Task { try await manager.run(gate.job(named: "survey", parameters: 30), whenBusy: .joinOrRefuse) }
        await gate.waitUntilStarted()
        #expect(!manager.runningJobIsCancelled)
        manager.cancel()
        #expect(manager.runningJobIsCancelled)
        // Still in this turn of the actor: the cancelled run is winding down and has not ended.
        let same = Task.immediate { @RegistryActor in
            try await manager.run(gate.job(named: "survey", parameters: 30), whenBusy: .joinOrRefuse)
        }
        let other = Task.immediate { @RegistryActor in
            try await manager.run(gate.job(named: "survey", parameters: 3), whenBusy: .joinOrRefuse)
        }
        gate.releaseSignal.finish()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(try await same.value == 2, "a new run, not the cancelled one")
        await #expect(throws: LongTaskError.busy(name: "survey", parameters: 30, progress: 0)) {
            try await other.value
        }
    }
}
