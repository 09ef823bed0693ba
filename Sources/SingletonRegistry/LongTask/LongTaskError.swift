/// Why ``LongTaskManager`` could not run a job.
public enum LongTaskError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ``LongTaskManager/doLongTask()`` was called on a manager that has no ``LongTaskManager/defaultJob``.
    case noDefaultJob

    /// A sentence for logs and clients.
    public var description: String {
        switch self {
        case .noDefaultJob: "the long-task manager has no default job to run"
        }
    }
}
