// The code quoted in README.md, compiled as a user compiles it: this target sees only what the products make
// public. Keep the two in step: the README copies these lines verbatim.
import GNSSLocation
import GNSSLocationTesting
import GNSSProtocol
import SingletonRegistry
import SingletonRegistryTesting
import Testing

// README: declaring a key (TripRecorder here is a plain manager with a lifecycle; Examples/ has the full one)
@RegistryActor
open class TripRecorder: ManagedSingleton {
    public nonisolated init() {}
    open func start() async throws {}
    open func shutdown() async {}
}

public enum TripRecorderKey: SingletonKey {
    public static var liveValue: TripRecorder { TripRecorder() }
    public static var dependencies: [any SingletonKey.Type] { [LocationManagerKey.self] }
}

extension AppSingletons {
    public var tripRecorder: TripRecorder {
        get { self[TripRecorderKey.self] }
        set { self[TripRecorderKey.self] = newValue }
    }
}

@Test(.singletons { $0.tripRecorder = TripRecorder() })
func theDeclaredKeyIsReadThroughItsAccessor() async {
    #expect(await appSingletons.holds(TripRecorderKey.self))
}

// README: using the registry
@RegistryActor
func surveyIfIdle() async throws {
    let tasks = appSingletons.longTaskManager
    guard !tasks.state.isRunning else { return }
    try await tasks.doLongTask()
}

// README and GettingStarted.md: the live manager, given its default job at startup
@RegistryActor
func installSurvey() {
    appSingletons.longTaskManager = LongTaskManager(
        defaultJob: LongTask(name: "survey") { progress in
            await progress.report(1)
        })
}

@Test func surveyRunsOnTheLiveManagerWithItsDefaultJob() async throws {
    try await withSingletons({ _ in }) {
        await installSurvey()
        try await surveyIfIdle()
        #expect(await appSingletons.longTaskManager.state == .finished(name: "survey"))
    }
}

// DeclaringSingletons.md: the mock pattern compiles for every built-in manager
final class CountingLongTasks: LongTaskManager {
    private(set) var jobs = 0
    nonisolated override init() {
        super.init()
    }
}

final class SilentLocationManager: LocationManager {
    private(set) var starts = 0
    nonisolated override init() {
        super.init()
    }
}

@Test func mocksOfTheBuiltInManagersAreMadeWithoutAwait() async {
    let tasks = CountingLongTasks()
    let location = SilentLocationManager()
    #expect(await tasks.jobs == 0)
    #expect(await location.starts == 0)
}

// README: overriding it in a Swift Testing test
final class InstantLongTasks: LongTaskManager {
    override func doLongTask() async throws {
        try await run(LongTask(name: "instant") { progress in await progress.report(1) })
    }
}

@Test(.singletons { $0.longTaskManager = InstantLongTasks() })
func surveyRunsOnTheOverride() async throws {
    try await surveyIfIdle()
    #expect(await appSingletons.longTaskManager.isTaskDone)
}

@Test func overrideForOneBlock() async throws {
    let mock = InstantLongTasks()
    try await withSingletons({ $0.longTaskManager = mock }) {
        try await surveyIfIdle()
    }
    #expect(await mock.isTaskDone)
}

// README: LocationManager
@RegistryActor
func firstPositions(_ count: Int) async throws -> [Fix] {
    let location = appSingletons.locationManager
    let updates = location.updates(bufferSize: 16)
    try await location.start(.gpsd())  // 127.0.0.1:2947
    var fixes: [Fix] = []
    for await update in updates where update.fix.latitude != nil {
        fixes.append(update.fix)
        if fixes.count == count { break }
    }
    return fixes
}

let twoFixes = [
    Fix(mode: .threeD, latitude: 48.1173, longitude: 11.5167),
    Fix(mode: .threeD, latitude: 47.3769, longitude: 8.5417),
]

@Test func positionsComeFromTheScript() async throws {
    let fixes = try await withSingletons({ $0.locationManager = ScriptedLocationManager(script: twoFixes) }) {
        try await firstPositions(2)
    }
    #expect(fixes.map(\.latitude) == [48.1173, 47.3769])
}

@Test(.singletons { $0.clock = TestClock() }) @RegistryActor
func aFixTurnsStaleAfterFiveSeconds() async throws {
    let clock = try #require(appSingletons.clock as? TestClock)
    let manager = LocationManager()
    let states = manager.stateChanges()
    manager.deliver(Fix(mode: .threeD, latitude: 47, longitude: 8))
    await clock.sleepers(atLeast: 1)  // the staleness watch is asleep
    await clock.advance(by: .milliseconds(4_999))
    #expect(clock.pendingDeadlines == [TestClock.Instant(offset: .seconds(5))])  // still asleep, until +5 s
    #expect(manager.state.name == "fixed")
    await clock.advance(by: .milliseconds(1))
    // The watch runs again after `advance` returns: wait for the state it sets rather than reading it at once.
    for await state in states where state.name != "idle" && state.name != "fixed" {
        #expect(state.name == "stale")
        break
    }
}
