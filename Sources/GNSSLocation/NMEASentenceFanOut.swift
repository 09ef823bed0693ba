import SingletonRegistry

/// The subscribers of ``LocationManager/nmeaSentences(bufferSize:)``: each gets the raw sentences of an NMEA source
/// in a stream of its own that keeps the newest `bufferSize` sentences, so a slow subscriber loses its oldest and
/// never holds up the source.
///
/// Sent from the session's task (off the registry's actor), subscribed to from anywhere: its state is under a lock.
/// With nobody subscribed, a send costs one lock.
final class NMEASentenceFanOut: Sendable {
    private struct State {
        var nextID = 0
        var subscribers: [Int: AsyncStream<[UInt8]>.Continuation] = [:]
    }

    private let state = SanitizerVisibleMutex(State())

    /// A fan-out with no subscriber.
    init() {}

    /// Whether anyone listens: the session splits sentences out of the bytes only then.
    var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }

    /// A new subscription keeping at most `bufferSize` unread sentences.
    func subscribe(bufferSize: Int) -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: [UInt8].self, bufferingPolicy: .bufferingNewest(max(1, bufferSize)))
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

    /// Sends `sentence` to every subscriber.
    func send(_ sentence: [UInt8]) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.yield(sentence) }
    }
}
