import Synchronization

/// A `Mutex` whose hand-overs ThreadSanitizer can see; the package uses it wherever threads share state.
///
/// On Linux, `Synchronization.Mutex` locks with atomics inside the standard library and waits on a futex, none of
/// which ThreadSanitizer instruments, so TSan reports the data a `Mutex` protects as raced although the lock
/// ordered every access (a two-thread counter reproduces it). Each critical section here also does one atomic
/// acquire at its start and one release at its end, compiled in this module where TSan sees them: the release of
/// one holder and the acquire of the next give TSan the ordering the lock already guarantees. It costs one
/// uncontended atomic read-modify-write per lock. CONCURRENCY.md ("Locks") has the argument in full.
package final class SanitizerVisibleMutex<Value: ~Copyable>: Sendable {
    private let mutex: Mutex<Value>
    private let handOver = Atomic<Int>(0)

    /// Creates a lock around `initialValue`.
    package init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the value, as `Mutex.withLock` does.
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            _ = handOver.load(ordering: .acquiring)
            defer { handOver.wrappingAdd(1, ordering: .releasing) }
            return try body(&value)
        }
    }
}
