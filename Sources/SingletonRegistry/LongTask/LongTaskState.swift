/// Where ``LongTaskManager`` is in its current or last job.
public enum LongTaskState: Sendable, Hashable, CustomStringConvertible {
    /// No job has run yet.
    case idle
    /// The job named `name` runs and has reported `progress` (0...1).
    case running(name: String, progress: Double)
    /// The job named `name` completed.
    case finished(name: String)
    /// The job named `name` was cancelled before it completed.
    case cancelled(name: String)
    /// The job named `name` threw `message`.
    case failed(name: String, message: String)

    /// Whether the last job completed.
    public var isTaskDone: Bool {
        if case .finished = self { true } else { false }
    }

    /// Whether a job runs now.
    public var isRunning: Bool {
        if case .running = self { true } else { false }
    }

    /// The progress of the current or last job: 1 once it finished, 0 before any job ran.
    public var progress: Double {
        switch self {
        case .idle: 0
        case .running(_, let progress): progress
        case .finished: 1
        case .cancelled, .failed: 0
        }
    }

    /// A short line for logs and status reports.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .running(let name, let progress): "running \(name) (\(Int(progress * 100))%)"
        case .finished(let name): "finished \(name)"
        case .cancelled(let name): "cancelled \(name)"
        case .failed(let name, let message): "failed \(name): \(message)"
        }
    }
}
