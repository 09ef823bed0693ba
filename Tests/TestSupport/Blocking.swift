import Foundation

/// Runs blocking work (a `poll`, a `read`, waiting for a process) on a thread of its own, so that it never holds
/// one of the few threads of Swift's cooperative pool, which the code under test needs to make progress.
package func blocking<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
