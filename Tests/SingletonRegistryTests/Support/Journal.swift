@testable import SingletonRegistry

/// A journal of events in the order they were written, from any task: what lifecycle probes and sleepers record so
/// that a test can check the order of what happened.
final class Journal: Sendable {
    private let lines = SanitizerVisibleMutex<[String]>([])

    /// Every entry, oldest first.
    var entries: [String] { lines.withLock { $0 } }

    /// Appends `entry`.
    func write(_ entry: String) { lines.withLock { $0.append(entry) } }
}
