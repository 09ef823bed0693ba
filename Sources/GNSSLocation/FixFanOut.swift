import GNSSProtocol
import SingletonRegistry

/// The set of ``LocationManager/updates(bufferSize:)`` subscribers.
///
/// It holds each subscription weakly: a subscriber that drops its sequence and iterator (stops iterating) is
/// removed on the next send, without telling anyone.
@RegistryActor
final class FixFanOut {
    private struct Entry {
        weak var subscription: FixSubscription?
    }

    /// The subscriptions; only the manager's actor touches them, so a send with nobody subscribed reads one count.
    @exclusivity(unchecked) private var entries: [Entry] = []

    /// A fan-out with no subscriber.
    nonisolated init() {}

    /// The number of subscribers still iterating.
    var count: Int {
        entries.removeAll { $0.subscription == nil }
        return entries.count
    }

    /// Adds a subscriber with a buffer of `capacity` fixes.
    func subscribe(capacity: Int) -> FixSubscription {
        let subscription = FixSubscription(capacity: capacity)
        entries.append(Entry(subscription: subscription))
        return subscription
    }

    /// Offers `fix` to every subscriber, dropping those that stopped iterating; with none, only reads a count.
    @inline(__always)
    func send(_ fix: Fix) {
        if !entries.isEmpty { offer(fix) }
    }

    /// Offers `fix` to every subscriber, dropping those that stopped iterating.
    @inline(never)
    private func offer(_ fix: Fix) {
        let current = entries
        var lost = false
        for entry in current {
            if let subscription = entry.subscription {
                subscription.offer(fix)
            } else {
                lost = true
            }
        }
        if lost { entries.removeAll { $0.subscription == nil } }
    }
}
