import GNSSProtocol
import SingletonRegistry

/// One subscriber's bounded buffer of fixes: when it is full, the oldest fix is dropped and counted.
///
/// The manager offers fixes from ``RegistryActor``; the subscriber takes them from its own task. A waiting
/// subscriber is resumed directly, so a subscriber that keeps up never buffers.
final class FixSubscription: Sendable {
    private struct State {
        var buffer: [Fix] = []
        var dropped = 0
        var waiter: CheckedContinuation<LocationUpdate?, Never>?
        var finished = false
    }

    let capacity: Int
    private let state = SanitizerVisibleMutex(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Hands `fix` to the waiting subscriber, or buffers it, dropping the oldest buffered fix when full.
    func offer(_ fix: Fix) {
        let resume: (CheckedContinuation<LocationUpdate?, Never>, LocationUpdate)? = state.withLock { state in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                defer { state.dropped = 0 }
                return (waiter, LocationUpdate(fix: fix, droppedBefore: state.dropped))
            }
            if state.buffer.count == capacity {
                state.buffer.removeFirst()
                state.dropped += 1
            }
            state.buffer.append(fix)
            return nil
        }
        if let (waiter, update) = resume { waiter.resume(returning: update) }
    }

    /// Ends the subscription: a waiting subscriber gets `nil` at once, a reading one after its buffered fixes.
    func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next update, waiting for one; `nil` once the subscription ended or the calling task was cancelled.
    func next() async -> LocationUpdate? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<LocationUpdate?, Never>) in
                let ready: LocationUpdate?? = state.withLock { state in
                    if !state.buffer.isEmpty {
                        defer { state.dropped = 0 }
                        return LocationUpdate(fix: state.buffer.removeFirst(), droppedBefore: state.dropped)
                    }
                    if state.finished { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }
}
