import Synchronization

/// A `Mutex` whose hand-overs ThreadSanitizer can see.
///
/// On Linux, `Mutex` waits on a priority-inheriting futex: when a thread blocks, the unlocking thread hands the lock
/// over in the kernel, with no atomic operation that ThreadSanitizer observes, so TSan reports the protected data as
/// raced although the lock ordered every access. This wrapper adds one atomic acquire at the start and one release
/// at the end of each critical section (in this module, so TSan instruments them): the release of one holder and
/// the acquire of the next give TSan the ordering the futex already guarantees. It costs one uncontended atomic
/// read-modify-write per lock.
final class ObservedMutex<Value: ~Copyable>: Sendable {
    private let mutex: Mutex<Value>
    private let handOver = Atomic<Int>(0)

    init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with exclusive access to the value, as `Mutex.withLock`.
    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            _ = handOver.load(ordering: .acquiring)
            defer { handOver.wrappingAdd(1, ordering: .releasing) }
            return try body(&value)
        }
    }
}
