import SingletonRegistry
import Synchronization

/// One subscriber's bounded buffer: when it is full, the oldest element is dropped and counted.
///
/// The manager offers elements from ``RegistryActor``; the subscriber takes them from its own task. A waiting
/// subscriber is resumed directly, so a subscriber that keeps up never buffers. It serves ``LocationUpdates`` (fixes)
/// and ``LocationEvents``.
///
/// A subscription that holds the source (``holdsSource``) also lets a producer wait for room: ``waitForRoom()``
/// returns once no more than ``roomMark`` elements are unread, so a source that can wait is read no faster than the
/// subscriber reads, and the buffer drops only when a source that cannot wait (a serial device) overruns it.
final class BoundedSubscription<Element: Sendable>: Sendable {
    /// An element with the number of older ones this subscriber lost just before it.
    typealias Delivery = (element: Element, droppedBefore: Int)

    private struct State {
        var buffer: [Element] = []
        var head = 0
        var dropped = 0
        var waiter: CheckedContinuation<Delivery?, Never>?
        /// The producer waiting in ``waitForRoom()``.
        var roomWaiter: CheckedContinuation<Void, Never>?
        var finished = false
        var unread: Int { buffer.count - head }

        /// Takes the oldest buffered element.
        mutating func takeFirst() -> Element {
            let element = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= buffer.count {
                buffer.removeFirst(head)
                head = 0
            }
            return element
        }
    }

    let capacity: Int
    /// Whether a producer may wait for this subscriber (``waitForRoom()``).
    let holdsSource: Bool
    /// How many unread elements a producer that waits for room leaves at most: a quarter of ``capacity``, so that
    /// what one read of the source completes fits in the rest without a drop.
    let roomMark: Int
    private let state: SanitizerVisibleMutex<State>

    init(capacity: Int, holdsSource: Bool = false) {
        self.capacity = max(1, capacity)
        self.holdsSource = holdsSource
        roomMark = max(1, capacity / 4)
        state = SanitizerVisibleMutex(State())
    }

    /// Whether more than ``roomMark`` elements are unread: a producer that can wait should, with ``waitForRoom()``.
    var isOverRoomMark: Bool { state.withLock { !$0.finished && $0.unread > roomMark } }

    /// Hands `element` to the waiting subscriber, or buffers it, dropping the oldest buffered element when full.
    func offer(_ element: Element) {
        let resume: (CheckedContinuation<Delivery?, Never>, Delivery)? = state.withLock { state in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                defer { state.dropped = 0 }
                return (waiter, (element, state.dropped))
            }
            if state.unread == capacity {
                _ = state.takeFirst()
                state.dropped += 1
            }
            state.buffer.append(element)
            return nil
        }
        if let (waiter, delivery) = resume { waiter.resume(returning: delivery) }
    }

    /// Waits until no more than ``roomMark`` elements are unread, the subscription ended, or the calling task is
    /// cancelled. One producer waits at a time.
    func waitForRoom() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    guard !state.finished, state.unread > roomMark, !Task.isCancelled else { return true }
                    state.roomWaiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.roomWaiter = nil }
                return state.roomWaiter
            }?.resume()
        }
    }

    /// Ends the subscription: a waiting subscriber gets `nil` at once, a reading one after its buffered elements;
    /// a producer waiting for room goes on.
    func finish() {
        let (waiter, roomWaiter) = state.withLock { state in
            state.finished = true
            defer {
                state.waiter = nil
                state.roomWaiter = nil
            }
            return (state.waiter, state.roomWaiter)
        }
        waiter?.resume(returning: nil)
        roomWaiter?.resume()
    }

    /// The next element, waiting for one; `nil` once the subscription ended or the calling task was cancelled.
    func next() async -> Delivery? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Delivery?, Never>) in
                let (ready, room): (Delivery??, CheckedContinuation<Void, Never>?) = state.withLock { state in
                    if state.unread > 0 {
                        defer { state.dropped = 0 }
                        let delivery = (state.takeFirst(), state.dropped)
                        var room: CheckedContinuation<Void, Never>?
                        if state.unread <= roomMark {
                            room = state.roomWaiter
                            state.roomWaiter = nil
                        }
                        return (delivery, room)
                    }
                    if state.finished { return (.some(nil), nil) }
                    state.waiter = continuation
                    return (nil, state.roomWaiter.take())
                }
                room?.resume()
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }
}
