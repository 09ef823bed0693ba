import SingletonRegistry
import SingletonRegistryTesting
import Testing
import WeatherStation

/// 128 cases run in parallel, each with its own mock, and each sees only its own, in its task, in a `Task {}` and
/// in child tasks. The same check run with plain global assignment must catch the cross-talk, or it would prove
/// nothing.
@Suite(.timeLimit(.minutes(1))) struct ParallelCasesTests {
    static let overlap = Overlap()

    @RegistryActor
    static func recorderOwner() -> Int? { (appSingletons.tripRecorder as? RecordingTripRecorder)?.owner }

    /// Claims the case's recorder, waits in `meet` until another case has claimed its own, then reads the owner
    /// back from the case's task, a `Task {}` and four child tasks.
    static func claimAndReadBack(_ index: Int, meet: () async -> Void) async -> [Int?] {
        await (appSingletons.tripRecorder as? RecordingTripRecorder)?.claim(for: index)
        await meet()
        var seen = [await recorderOwner(), await Task { await recorderOwner() }.value]
        seen += await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<4 { group.addTask { await recorderOwner() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        return seen
    }

    @Test(.singletons { $0.tripRecorder = RecordingTripRecorder() }, arguments: 0..<128)
    func eachCaseSeesOnlyItsOwnMock(index: Int) async {
        await Self.overlap.enter()
        let seen = await Self.claimAndReadBack(index) { await Self.overlap.meet() }
        await Self.overlap.leave()
        #expect(seen == Array(repeating: index, count: 6))
    }

    /// The cases meet in pairs, whenever the scheduler runs them: of each pair, the one that arrived first reads
    /// after its partner replaced the process-wide recorder with its own, so at least 64 of the 128 see cross-talk.
    @Test func theSameCheckFailsUnderPlainGlobalAssignment() async {
        let pairs = Pairs()
        let crossTalk = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<128 {
                group.addTask {
                    await Self.assignProcessWide()
                    let seen = await Self.claimAndReadBack(10_000 + index) { await pairs.meet() }
                    return seen != Array(repeating: 10_000 + index, count: 6)
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        await Self.restoreProcessWide()
        #expect(crossTalk >= 64, "global assignment lets concurrent cases see each other's mocks")
    }

    @RegistryActor
    static func assignProcessWide() {
        appSingletons.tripRecorder = RecordingTripRecorder()
    }

    @RegistryActor
    static func restoreProcessWide() {
        appSingletons.restoreLiveValue(of: TripRecorderKey.self)
    }
}

/// Makes concurrent cases meet in pairs, so that each case's window overlaps another's; a case that is the only
/// one in flight does not wait.
actor Overlap {
    /// Cases that entered and have not left.
    private var inFlight = 0
    /// A case waiting for a partner.
    private var waiting: CheckedContinuation<Void, Never>?

    func enter() { inFlight += 1 }

    func meet() async {
        if let partner = waiting {
            waiting = nil
            partner.resume()
            return
        }
        if inFlight <= 1 { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in waiting = continuation }
    }

    func leave() {
        inFlight -= 1
        guard inFlight <= 1, let lonely = waiting else { return }
        waiting = nil
        lonely.resume()
    }
}

/// Makes tasks meet in pairs: a task waits in ``meet()`` until another arrives, however late the scheduler runs it,
/// so the two overlap by construction. A wait ends otherwise only when its task is cancelled (the suite's time limit,
/// which catches a hang).
actor Pairs {
    /// The task waiting for a partner, with the number that tells its cancellation apart.
    private var waiting: (id: Int, continuation: CheckedContinuation<Void, Never>)?
    private var nextID = 0

    func meet() async {
        if let partner = waiting {
            waiting = nil
            partner.continuation.resume()
            return
        }
        let id = nextID
        nextID += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if Task.isCancelled { continuation.resume() } else { waiting = (id, continuation) }
            }
        } onCancel: {
            Task { await self.stopWaiting(id) }
        }
    }

    private func stopWaiting(_ id: Int) {
        guard let partner = waiting, partner.id == id else { return }
        waiting = nil
        partner.continuation.resume()
    }
}
