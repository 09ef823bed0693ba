import GNSSLocation
import GNSSProtocol
import SingletonRegistry
import WeatherStation

/// A trip recorder for tests: it remembers which test case claimed it, and whether the registry started it.
///
/// A subclass with stored properties needs a `nonisolated init`: the trait's and `withSingletons`' configuration
/// closures run on the registry's actor, but a test builds mocks wherever it runs. Without it, creating one from a
/// nonisolated test takes an `await`: `let mock = await RecordingTripRecorder()`.
final class RecordingTripRecorder: TripRecorder {
    private(set) var owner: Int?
    private(set) var starts = 0
    /// The number of points after each `record(_:)`.
    let counts: AsyncStream<Int>
    private let countsContinuation: AsyncStream<Int>.Continuation

    nonisolated override init() {
        (counts, countsContinuation) = AsyncStream.makeStream(of: Int.self)
        super.init()
    }

    func claim(for owner: Int) { self.owner = owner }

    override func record(_ fix: Fix) {
        super.record(fix)
        countsContinuation.yield(points.count)
    }

    override func start() async throws {
        starts += 1
        try await super.start()
    }
}

/// Two fixes for the scripted location manager.
let oslo = Fix(mode: .threeD, latitude: 59.9139, longitude: 10.7522)
let bergen = Fix(mode: .threeD, latitude: 60.3913, longitude: 5.3221)

/// A location manager written by hand, as a user writes one: it plays a source that connects and reports `fixes`,
/// through the base class's public `transition(to:)` and `deliver(_:)`, with no knowledge of isolation rules.
final class HandWrittenLocationManager: LocationManager {
    private let fixes: [Fix]

    nonisolated init(fixes: [Fix]) {
        self.fixes = fixes
        super.init()
    }

    override func start() async throws {
        transition(to: .connecting(source: "hand-written"))
        transition(to: .waitingForFix(source: "hand-written"))
        for fix in fixes { deliver(fix) }
    }
}
