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

    /// Claims the case's recorder, waits until another case has claimed its own, then reads the owner back from
    /// the case's task, a `Task {}` and four child tasks.
    static func claimAndReadBack(_ index: Int, overlap: Overlap) async -> [Int?] {
        await (appSingletons.tripRecorder as? RecordingTripRecorder)?.claim(for: index)
        await overlap.meet()
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
        let seen = await Self.claimAndReadBack(index, overlap: Self.overlap)
        await Self.overlap.leave()
        #expect(seen == Array(repeating: index, count: 6))
    }

    @Test func theSameCheckFailsUnderPlainGlobalAssignment() async {
        let overlap = Overlap()
        let crossTalk = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<128 {
                await overlap.enter()
                group.addTask {
                    await Self.assignProcessWide()
                    let seen = await Self.claimAndReadBack(10_000 + index, overlap: overlap)
                    await overlap.leave()
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
