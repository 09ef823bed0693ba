import SingletonRegistry
import Synchronization

/// One subscriber's bounded buffer: when it is full, the oldest element is dropped and counted.
///
/// The manager offers elements from ``RegistryActor``; the subscriber takes them from its own task. A waiting
/// subscriber is resumed directly, so a subscriber that keeps up never buffers. It serves ``LocationUpdates`` (fixes)
/// and ``LocationEvents``.
final class BoundedSubscription<Element: Sendable>: Sendable {
    /// An element with the number of older ones this subscriber lost just before it.
    typealias Delivery = (element: Element, droppedBefore: Int)

    private struct State {
        var buffer: [Element] = []
        var dropped = 0
        var waiter: CheckedContinuation<Delivery?, Never>?
        var finished = false
    }

    let capacity: Int
    private let state: SanitizerVisibleMutex<State>

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        state = SanitizerVisibleMutex(State())
    }

    /// Hands `element` to the waiting subscriber, or buffers it, dropping the oldest buffered element when full.
    func offer(_ element: Element) {
        let resume: (CheckedContinuation<Delivery?, Never>, Delivery)? = state.withLock { state in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                defer { state.dropped = 0 }
                return (waiter, (element, state.dropped))
            }
            if state.buffer.count == capacity {
                state.buffer.removeFirst()
                state.dropped += 1
            }
            state.buffer.append(element)
            return nil
        }
        if let (waiter, delivery) = resume { waiter.resume(returning: delivery) }
    }

    /// Ends the subscription: a waiting subscriber gets `nil` at once, a reading one after its buffered elements.
    func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next element, waiting for one; `nil` once the subscription ended or the calling task was cancelled.
    func next() async -> Delivery? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Delivery?, Never>) in
                let ready: Delivery?? = state.withLock { state in
                    if !state.buffer.isEmpty {
                        defer { state.dropped = 0 }
                        return (state.buffer.removeFirst(), state.dropped)
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
