/// Why ``LongTaskManager`` could not run a job.
public enum LongTaskError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ``LongTaskManager/doLongTask()`` was called on a manager that has no ``LongTaskManager/defaultJob``.
    case noDefaultJob
    /// Another job is running or queued (``LongTaskAdmission/joinOrRefuse``): its name, its parameters and how far
    /// it got (0 while it waits in the queue).
    case busy(name: String, parameters: any Hashable & Sendable, progress: Double)
    /// A run of a job with this name and these parameters is under way, but it produces another type of output, so
    /// it cannot be joined.
    case outputMismatch(name: String, running: String, requested: String)

    /// A sentence for logs and clients.
    public var description: String {
        switch self {
        case .noDefaultJob:
            return "the long-task manager has no default job to run"
        case .busy(let name, let parameters, let progress):
            let job = LongTaskParameters.describe(parameters).map { "\(name) (\($0))" } ?? name
            return "another job is running: \(job), \(Int((progress * 100).rounded(.down)))% done"
        case .outputMismatch(let name, let running, let requested):
            return "a run of \(name) producing \(running) is under way; it cannot be joined for \(requested)"
        }
    }

    /// Whether the two errors are the same case with equal values.
    public static func == (lhs: LongTaskError, rhs: LongTaskError) -> Bool {
        switch (lhs, rhs) {
        case (.noDefaultJob, .noDefaultJob):
            true
        case (.busy(let n1, let p1, let f1), .busy(let n2, let p2, let f2)):
            n1 == n2 && LongTaskParameters.equal(p1, p2) && f1 == f2
        case (.outputMismatch(let n1, let r1, let q1), .outputMismatch(let n2, let r2, let q2)):
            n1 == n2 && r1 == r2 && q1 == q2
        default:
            false
        }
    }
}
