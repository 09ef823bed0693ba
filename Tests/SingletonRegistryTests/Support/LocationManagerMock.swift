import GNSSLocation
import GNSSProtocol
import SingletonRegistry

/// A test's own mock of the location manager: it opens nothing, records the sources it is asked for, and delivers
/// the fixes the test feeds it through the real delivery path (state, `lastFix`, every `updates()` subscriber).
final class LocationManagerMock: LocationManager {
    private(set) var requestedSources: [LocationSource] = []
    /// Yields once per `start(_:)`, so a test can feed fixes once the code under test has started the manager.
    let (starts, startSignal) = AsyncStream.makeStream(of: Void.self)

    override func start(_ source: LocationSource) async throws {
        requestedSources.append(source)
        transition(to: .waitingForFix(source: "mock"))
        startSignal.yield()
    }

    func feed(_ fixes: [Fix]) {
        for fix in fixes { deliver(fix) }
    }
}
