import SingletonRegistry

/// A `LongTaskManager` for tests: ``doLongTask()`` completes at once and every call is counted.
///
/// The run still goes through the manager's state machine, so `isTaskDone`, `stateChanges()` and observers behave
/// as with a real job. Subclass it to script something else.
@RegistryActor
open class RecordingLongTaskManager: LongTaskManager {
    /// How many times ``doLongTask()`` was called.
    public private(set) var doLongTaskCalls = 0
    /// How many times ``shutdown()`` was called (the registry's lifecycle or an ending override scope).
    public private(set) var shutdownCalls = 0
    /// A number the test chose, to tell instances apart: which of several overrides (parallel test cases, nested
    /// scopes) the code under test sees, as a value that can cross into a message or an expectation.
    public nonisolated let tag: Int

    /// Creates a manager whose jobs finish at once, tagged 0.
    public nonisolated override init(defaultJob: LongTask<Void>? = nil) {
        tag = 0
        super.init(defaultJob: defaultJob)
    }

    /// Creates a manager whose jobs finish at once, tagged `tag` (see ``tag``).
    public nonisolated init(tag: Int, defaultJob: LongTask<Void>? = nil) {
        self.tag = tag
        super.init(defaultJob: defaultJob)
    }

    /// Counts the call and runs an instant job (or the `LongTaskManager/defaultJob`, if set).
    open override func doLongTask() async throws {
        doLongTaskCalls += 1
        try await run(defaultJob ?? LongTask(name: "recorded") { _ in })
    }

    /// Counts the call and shuts down as the real manager does.
    open override func shutdown() async {
        shutdownCalls += 1
        await super.shutdown()
    }
}
