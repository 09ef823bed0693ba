import Dispatch
import SingletonRegistry
import Synchronization
import TestSupport
import Testing

/// One job at a time, joined runs, progress, cancellation, and an actor that stays responsive.
@Suite(.hangBound) struct LongTaskManagerTests {
    /// A job that runs until released, counting how often it started.
    final class Gate: Sendable {
        let starts = Atomic<Int>(0)
        let (started, startedSignal) = AsyncStream.makeStream(of: Void.self)
        let (release, releaseSignal) = AsyncStream.makeStream(of: Void.self)

        func body() async throws -> Int {
            let count = starts.add(1, ordering: .relaxed).newValue
            startedSignal.yield()
            for await _ in release { break }
            try Task.checkCancellation()
            return count
        }

        func job(named name: String = "gated", parameters: some Hashable & Sendable = "") -> LongTask<Int> {
            LongTask(name: name, parameters: parameters) { _ in try await self.body() }
        }

        func waitUntilStarted() async {
            for await _ in started { return }
        }
    }

    @Test @RegistryActor
    func aSecondDoLongTaskJoinsTheRunningOne() async throws {
        let gate = Gate()
        let manager = LongTaskManager(defaultJob: LongTask(name: "default") { _ in _ = try await gate.body() })
        async let first: Void = manager.doLongTask()
        await gate.waitUntilStarted()
        // `Task.immediate` runs on this actor until its first suspension, so the second call has joined (or started
        // a run of its own) before the gate opens. Finishing the gate lets a wrongly started second run end too.
        let second = Task.immediate { @RegistryActor in try await manager.doLongTask() }
        gate.releaseSignal.finish()
        try await first
        try await second.value
        #expect(gate.starts.load(ordering: .relaxed) == 1)
        #expect(manager.isTaskDone)
    }

    /// Counts the jobs running at once and the most that ever did.
    final class Overlap: Sendable {
        private let counts = SanitizerVisibleMutex((now: 0, most: 0))
        var most: Int { counts.withLock { $0.most } }

        func job(_ name: String) -> LongTask<Void> {
            LongTask(name: name) { _ in
                self.counts.withLock { $0 = (now: $0.now + 1, most: max($0.most, $0.now + 1)) }
                for _ in 0..<50 { await Task.yield() }
                self.counts.withLock { $0.now -= 1 }
            }
        }
    }

    @Test func differentJobsRunOneAtATime() async throws {
        let manager = LongTaskManager()
        let overlap = Overlap()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<8 { group.addTask { try await manager.run(overlap.job("job \(i)")) } }
            try await group.waitForAll()
        }
        #expect(overlap.most == 1)
    }

    @Test @RegistryActor
    func cancelEndsTheRunningJobAsCancelled() async throws {
        let gate = Gate()
        let manager = LongTaskManager()
        let run = Task { try await manager.run(gate.job()) }
        await gate.waitUntilStarted()
        #expect(manager.state == .running(name: "gated", progress: 0))
        manager.cancel()
        gate.releaseSignal.yield()
        await #expect(throws: CancellationError.self) { try await run.value }
        #expect(manager.state == .cancelled(name: "gated"))
        #expect(!manager.isTaskDone)
    }

    @Test @RegistryActor
    func progressReportsReachTheState() async throws {
        let manager = LongTaskManager()
        let changes = manager.stateChanges()
        try await manager.run(
            LongTask(name: "steps") { progress in
                for step in 1...4 { await progress.report(Double(step) / 4) }
            })
        var progress: [Double] = []
        for await state in changes {
            if case .running(_, let value) = state { progress.append(value) }
            if state.isTaskDone { break }
        }
        #expect(progress == [0, 0.25, 0.5, 0.75, 1])
        #expect(manager.progress == 1)
    }

    @Test @RegistryActor
    func aFailingJobIsReportedAsFailed() async {
        struct Broken: Error, CustomStringConvertible { var description: String { "receiver unplugged" } }
        let manager = LongTaskManager()
        await #expect(throws: Broken.self) { try await manager.run(LongTask(name: "survey") { _ in throw Broken() }) }
        #expect(manager.state == .failed(name: "survey", message: "receiver unplugged"))
    }

    @Test @RegistryActor
    func doLongTaskWithoutADefaultJobSaysSo() async {
        await #expect(throws: LongTaskError.noDefaultJob) { try await LongTaskManager().doLongTask() }
    }

    /// The job holds its thread of the cooperative pool in a synchronous wait until a state read on the registry's
    /// actor has answered; were the job on the actor, the read could only answer after the job, and the job would
    /// report `false`. It waits without spinning, so that the other tests of the run keep the CPU; its bound only
    /// catches a hang.
    @Test func theActorAnswersWhileAJobComputes() async throws {
        let answered = Atomic<Bool>(false)
        let answeredSignal = DispatchSemaphore(value: 0)
        let manager = LongTaskManager()
        let job = LongTask<Bool>(name: "compute") { _ in
            _ = answeredSignal.wait(timeout: .now() + waitHangBound)
            return answered.load(ordering: .acquiring)
        }
        async let sawAnswer = manager.run(job)
        let observedRunning = await Task { @RegistryActor in
            for await state in manager.stateChanges() {
                if state.isRunning { return true }
                if state != .idle { return false }
            }
            return false
        }.value
        answered.store(observedRunning, ordering: .releasing)
        answeredSignal.signal()
        #expect(try await sawAnswer)
    }
}
