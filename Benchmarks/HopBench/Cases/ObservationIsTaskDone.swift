import HopBenchCore
import Observation
import SingletonRegistry

/// Registers Observation tracking of `isTaskDone` on the registry's actor, as an observer re-arms it after each
/// change.
@RegistryActor
private func trackIsTaskDone(of manager: LongTaskManager, onChange changed: Baton) -> Bool {
    withObservationTracking {
        manager.isTaskDone
    } onChange: {
        changed.signal()
    }
}

extension Cases {
    /// A job finishing, seen by an observer that uses the Observation framework the way app code does: track
    /// `isTaskDone`, wake on `onChange`, read the new value on `RegistryActor`, track again.
    ///
    /// One operation: the job's work returns (stamp) → the manager hops back to `RegistryActor` and moves to
    /// `.finished` → `onChange` (called in `willSet`) wakes the observer task → it reads `isTaskDone == true` on
    /// the actor (stamp). The `.running` change before it is consumed, and tracking re-armed, before the work is
    /// let go.
    static let observationIsTaskDone = BenchmarkCase(
        perOperation: "observation.isTaskDone",
        summary: "instant job finishes -> withObservationTracking onChange -> observer reads isTaskDone (re-armed)"
    ) { operations in
        let probe = InstantJobProbe()
        let manager = probe.manager
        let changed = Baton()
        let runner = probe.startRunner(count: operations)
        var durations: [UInt64] = []
        durations.reserveCapacity(operations)
        var done = 0
        for _ in 0..<operations {
            _ = await trackIsTaskDone(of: manager, onChange: changed)
            probe.go.signal()
            await changed.wait()
            _ = await trackIsTaskDone(of: manager, onChange: changed)
            probe.gate.signal()
            await changed.wait()
            if await manager.isTaskDone { done += 1 }
            let end = MonotonicClock.now()
            durations.append(end &- probe.finishedAt.value.load(ordering: .acquiring))
        }
        await runner.value
        blackHole(done)
        return durations
    }

    /// The same change seen through the ordered `stateChanges()` stream: the value arrives in the element.
    static let observationIsTaskDoneStream = BenchmarkCase(
        perOperation: "observation.isTaskDone.stream",
        summary: "instant job finishes -> stateChanges() subscriber receives .finished"
    ) { operations in
        let probe = InstantJobProbe()
        let changes = await probe.manager.stateChanges()
        var states = changes.makeAsyncIterator()
        _ = await states.next()
        let runner = probe.startRunner(count: operations)
        var durations: [UInt64] = []
        durations.reserveCapacity(operations)
        var done = 0
        for _ in 0..<operations {
            probe.go.signal()
            _ = await states.next()
            probe.gate.signal()
            if await states.next()?.isTaskDone == true { done += 1 }
            let end = MonotonicClock.now()
            durations.append(end &- probe.finishedAt.value.load(ordering: .acquiring))
        }
        await runner.value
        blackHole(done)
        return durations
    }
}
