import SingletonRegistry

/// Main-actor code of the app (isolated by default): it reads the registry with `await`, runs the long task, and
/// follows `isTaskDone` through `stateChanges()`, which main-actor code can iterate.
public final class AlertBoard {
    public private(set) var alerts: [String] = []
    public private(set) var surveyDone = false

    public init() {}

    /// Loads the alerts for `city` through the registry's client.
    public func load(_ city: String) async throws {
        let client = await appSingletons.alertClient
        alerts = try await client.alerts(city)
    }

    /// Runs the long task's default job and records when it is done, as the manager reports it.
    public func survey() async throws {
        let manager = await appSingletons.longTaskManager
        let states = await manager.stateChanges()
        try await manager.doLongTask()
        for await state in states where state.isTaskDone {
            surveyDone = true
            break
        }
    }
}
