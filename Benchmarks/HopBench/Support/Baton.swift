import Synchronization

/// A one-slot signal between two tasks: `signal()` wakes the task parked in `wait()`, or lets its next `wait()`
/// return at once.
///
/// Cheaper than an `AsyncStream` of acknowledgements and allocation-free (an unsafe continuation lives in the
/// waiting task's frame, a checked one would allocate its canary), so a case that uses it to pace its
/// operations counts only the allocations of the code it measures. One waiter at a time.
final class Baton: Sendable {
    private enum State {
        case idle
        case signalled
        case waiting(UnsafeContinuation<Void, Never>)
    }

    private let state = Mutex(State.idle)

    /// Wakes the waiter, or arms the next `wait()`.
    func signal() {
        let waiter: UnsafeContinuation<Void, Never>? = state.withLock { state in
            switch state {
            case .waiting(let continuation):
                state = .idle
                return continuation
            case .idle, .signalled:
                state = .signalled
                return nil
            }
        }
        waiter?.resume()
    }

    /// Returns once `signal()` was called after the previous `wait()` returned.
    func wait() async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if case .signalled = state {
                    state = .idle
                    return true
                }
                state = .waiting(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
