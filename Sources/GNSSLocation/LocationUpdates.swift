import GNSSProtocol

/// A subscriber's stream of fixes from ``LocationManager``, like CoreLocation's `CLLocationUpdate.liveUpdates()`.
///
/// Each call to ``LocationManager/updates(bufferSize:)`` makes a fresh sequence with its own bounded buffer: a slow
/// subscriber loses its oldest fixes, and the next ``LocationUpdate`` says how many, but it never stalls the
/// manager or other subscribers. Iterate it from one task; the sequence ends when its task is cancelled.
public struct LocationUpdates: AsyncSequence, Sendable {
    /// The element type: a fix with its drop count.
    public typealias Element = LocationUpdate

    let subscription: BoundedSubscription<Fix>

    /// Makes the iterator; the sequence is meant to be iterated once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: subscription)
    }

    /// Reads updates from the subscription.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let subscription: BoundedSubscription<Fix>

        /// The next update; `nil` once the subscription ended or the task was cancelled.
        public mutating func next() async -> LocationUpdate? {
            guard let (fix, dropped) = await subscription.next() else { return nil }
            return LocationUpdate(fix: fix, droppedBefore: dropped)
        }
    }
}
