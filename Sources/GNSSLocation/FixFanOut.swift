import GNSSProtocol
import SingletonRegistry
import Synchronization

/// The set of ``LocationManager/updates(bufferSize:)`` subscribers.
///
/// It holds each subscription weakly: a subscriber that drops its sequence and iterator (stops iterating) is
/// removed on the next send, without telling anyone.
final class FixFanOut: Sendable {
    private struct Entry {
        weak var subscription: FixSubscription?
    }

    private let entries = SanitizerVisibleMutex<[Entry]>([])

    /// The number of live subscribers.
    var count: Int {
        entries.withLock { entries in
            entries.removeAll { $0.subscription == nil }
            return entries.count
        }
    }

    /// Adds a subscriber with a buffer of `capacity` fixes.
    func subscribe(capacity: Int) -> FixSubscription {
        let subscription = FixSubscription(capacity: capacity)
        entries.withLock { $0.append(Entry(subscription: subscription)) }
        return subscription
    }

    /// Offers `fix` to every live subscriber, forgetting those that went away.
    ///
    /// Offering under the fan-out's lock is safe: `offer` takes only the subscription's own lock and resumes a
    /// waiting subscriber without running it, so nothing can call back into the fan-out meanwhile.
    func send(_ fix: Fix) {
        entries.withLock { entries in
            var lost = false
            for entry in entries {
                if let subscription = entry.subscription {
                    subscription.offer(fix)
                } else {
                    lost = true
                }
            }
            if lost { entries.removeAll { $0.subscription == nil } }
        }
    }
}
