@_spi(Benchmarks) import GNSSLocation
import GNSSProtocol
import Observation
import SingletonRegistry
import TestSupport
import Testing

/// `lastFix`, `fixCount` and `state` are observable with Observation: each fix is one change of `lastFix` and
/// `fixCount` together, and the state changes only when it moves.
@Suite(.hangBound) struct LocationObservationTests {
    static func fix(_ n: Int) -> Fix {
        Fix(mode: .threeD, time: GNSSTime(millisecondsSince1970: Int64(n) * 1_000), latitude: 47, longitude: 8)
    }

    /// Tracks what `read` reads and returns a stream that yields once, when any of it changes.
    @RegistryActor
    static func change(of read: @escaping @RegistryActor () -> Void) -> AsyncStream<Void> {
        let (fired, signal) = AsyncStream.makeStream(of: Void.self)
        withObservationTracking {
            read()
        } onChange: {
            signal.yield()
            signal.finish()
        }
        return fired
    }

    @Test @RegistryActor
    func everyFixChangesLastFixAndFixCount() async {
        let manager = LocationManager().withoutLiveTimeouts()
        manager.deliver(Self.fix(1))
        for n in 2...3 {
            let lastFixChanged = Self.change { _ = manager.lastFix }
            let countChanged = Self.change { _ = manager.fixCount }
            manager.deliver(Self.fix(n))
            #expect(await lastFixChanged.didFire, "fix \(n) told the observer of lastFix")
            #expect(await countChanged.didFire, "fix \(n) told the observer of fixCount")
            #expect(manager.lastFix == Self.fix(n))
            #expect(manager.fixCount == n)
        }
    }

    /// An observer that starts before the first fix is told of it, and of the next.
    @Test @RegistryActor
    func anObserverFromTheStartIsToldOfTheFirstFix() async {
        let manager = LocationManager().withoutLiveTimeouts()
        let countChanged = Self.change { _ = manager.fixCount }
        manager.deliver(Self.fix(1))
        #expect(await countChanged.didFire)
        let lastFixChanged = Self.change { _ = manager.lastFix }
        manager.deliver(Self.fix(2))
        #expect(await lastFixChanged.didFire)
    }

    /// A registration may last (SwiftUI's stays until it is cancelled, and is told of every change after the one read
    /// that made it), so once a getter was read `deliver` calls the registrar for every later fix: the read is never
    /// forgotten. Only the manager's own flag can show it, since every registration the public API makes reads the
    /// getter again.
    @Test @RegistryActor
    func aReadOfLastFixIsNeverForgotten() {
        let manager = LocationManager().withoutLiveTimeouts()
        manager.deliver(Self.fix(1))
        #expect(!manager.deliverNotifiesObservers, "nothing read lastFix or fixCount: deliver skips the registrar")
        _ = manager.lastFix
        for n in 2...4 {
            manager.deliver(Self.fix(n))
            #expect(manager.deliverNotifiesObservers, "fix \(n) still goes through the registrar")
        }
        #expect(manager.untrackedFixCount == 4)
    }

    /// The daemon's untracked reads leave a later observer's registration working: it reads through the getter.
    @Test @RegistryActor
    func anObserverAfterUntrackedReadsIsToldOfTheNextFix() async {
        let manager = LocationManager().withoutLiveTimeouts()
        manager.deliver(Self.fix(1))
        #expect(manager.untrackedFixCount == 1)
        #expect(manager.untrackedLastFix == Self.fix(1))
        manager.deliver(Self.fix(2))
        let countChanged = Self.change { _ = manager.fixCount }
        manager.deliver(Self.fix(3))
        #expect(await countChanged.didFire)
        #expect(manager.fixCount == 3)
    }

    @Test @RegistryActor
    func theStateChangesOnceWhenTheFirstFixComesAndNotAgainWhileFixed() async {
        let manager = LocationManager().withoutLiveTimeouts()
        let firstFix = Self.change { _ = manager.state }
        manager.deliver(Self.fix(1))
        #expect(await firstFix.didFire, "the first fix moved the state")
        guard case .fixed = manager.state else {
            Issue.record("fixed after a fix with a position, not \(manager.state)")
            return
        }
        // Observed while fixed: the next fix must not touch the state. The tracking stays armed until a change comes,
        // so a fix that wrongly changed the state would be seen by the shutdown's check below.
        let (changes, signal) = AsyncStream.makeStream(of: String.self)
        withObservationTracking {
            _ = manager.state
        } onChange: {
            signal.yield("changed")
            signal.finish()
        }
        manager.deliver(Self.fix(2))
        signal.yield("after the second fix")
        await manager.shutdown()
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == "after the second fix", "the second fix left the state alone")
    }
}

extension AsyncStream<Void> {
    /// Whether the stream yielded before it finished: waits for the tracked change, or for a test's time limit.
    var didFire: Bool {
        get async {
            for await _ in self { return true }
            return false
        }
    }
}
