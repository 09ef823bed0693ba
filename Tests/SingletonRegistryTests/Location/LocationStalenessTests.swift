import GNSSProtocol
import Testing

@testable import GNSSLocation
@testable import SingletonRegistry

/// A fixed state turns stale when fixes stop, and then no timer is left running: an idle daemon uses no CPU.
@Suite(.timeLimit(.minutes(1))) struct LocationStalenessTests {
    @Test @RegistryActor
    func staleAfterSilenceThenNoTimerRemains() async {
        let manager = LocationManager()
        manager.staleAfter = .milliseconds(30)
        let changes = manager.stateChanges()
        #expect(!manager.isWatchingForStaleness, "no timer before the first fix")
        manager.deliver(Fix(mode: .threeD, latitude: 47, longitude: 8))
        #expect(manager.isWatchingForStaleness)
        for await state in changes where state.name == "stale" { break }
        #expect(!manager.isWatchingForStaleness, "the timer must end once the state is stale")
        manager.deliver(Fix(mode: .threeD, latitude: 47, longitude: 8))
        #expect(manager.state.name == "fixed")
        #expect(manager.isWatchingForStaleness, "the next fix arms it again")
        manager.deliver(Fix(mode: .noFix))
        await manager.stop()
        #expect(!manager.isWatchingForStaleness)
    }
}
