/// Fans values out to any number of `AsyncStream` subscribers, each with its own buffer.
///
/// Send from one isolation domain only (the managers send from ``RegistryActor``): sends are then serialised and
/// every subscriber receives values in the order they were sent. A subscriber that stops iterating, or whose task
/// is cancelled, is removed when its stream terminates. Streams finish from this side only on ``finishAll()``.
package final class Broadcaster<Element: Sendable>: Sendable {
    private struct State {
        var nextID = 0
        var subscribers: [Int: AsyncStream<Element>.Continuation] = [:]
    }

    private let state = SanitizerVisibleMutex(State())

    /// Creates a broadcaster with no subscribers.
    package init() {}

    /// Whether anyone listens now.
    package var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }

    /// A new subscription, buffered as `bufferingPolicy` says (without bound unless told), that first yields
    /// `initial`, when given, then every value sent after this call.
    package func subscribe(
        initial: Element? = nil,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        if let initial { continuation.yield(initial) }
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `value` to every subscriber.
    package func send(_ value: Element) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.yield(value) }
    }

    /// Ends every current subscription; a later ``subscribe(initial:bufferingPolicy:)`` starts a new one.
    package func finishAll() {
        let subscribers = state.withLock { state in
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
