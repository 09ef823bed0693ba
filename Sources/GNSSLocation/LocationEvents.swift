/// A subscriber's ordered stream of everything ``LocationManager`` gives out: fixes, satellite views, state
/// changes and raw sentences, as ``LocationEvent``s.
///
/// Each call to ``LocationManager/events(bufferSize:includingSentences:holdingSource:)`` makes a fresh sequence with its own
/// bounded buffer: a slow subscriber loses its oldest events, and a ``LocationEvent/dropped(_:)`` element says how
/// many just where they were lost, but it never stalls the manager or other subscribers. Iterate it from one task;
/// the sequence ends when its task is cancelled.
public struct LocationEvents: AsyncSequence, Sendable {
    /// The element type: an event, or the count of events lost before the next one.
    public typealias Element = LocationEvent

    let subscription: BoundedSubscription<LocationEvent>

    /// Makes the iterator; the sequence is meant to be iterated once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: subscription)
    }

    /// Reads events from the subscription.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let subscription: BoundedSubscription<LocationEvent>
        /// The event that follows a ``LocationEvent/dropped(_:)`` just returned.
        private var held: LocationEvent?

        init(subscription: BoundedSubscription<LocationEvent>) {
            self.subscription = subscription
        }

        /// The next event; `nil` once the subscription ended or the task was cancelled.
        public mutating func next() async -> LocationEvent? {
            if let event = held {
                held = nil
                return event
            }
            guard let (event, dropped) = await subscription.next() else { return nil }
            guard dropped > 0 else { return event }
            held = event
            return .dropped(dropped)
        }
    }
}
