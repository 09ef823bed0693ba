/// The key of the shared ``LongTaskManager``: ``AppSingletons/longTaskManager``.
public enum LongTaskManagerKey: SingletonKey {
    /// A manager with no default job.
    public static var liveValue: LongTaskManager { LongTaskManager() }
    /// In a test: a manager of the test's own, with no default job.
    public static var testValue: LongTaskManager { LongTaskManager() }
}

extension AppSingletons {
    /// The shared ``LongTaskManager``.
    public var longTaskManager: LongTaskManager {
        get { self[LongTaskManagerKey.self] }
        set { self[LongTaskManagerKey.self] = newValue }
    }
}
