import SingletonRegistry

/// A set of subscribers of one of ``LocationManager``'s streams: ``LocationManager/updates(bufferSize:)``'s, or
/// ``LocationManager/events(bufferSize:includingSentences:holdingSource:)``'s.
///
/// It holds each subscription weakly: a subscriber that drops its sequence and iterator (stops iterating) is
/// removed on the next send, without telling anyone.
@RegistryActor
final class FanOut<Element: Sendable> {
    private struct Entry {
        weak var subscription: BoundedSubscription<Element>?
    }

    /// The subscriptions; only the manager's actor touches them, so a send with nobody subscribed reads one count.
    @exclusivity(unchecked) private var entries: [Entry] = []
    /// How many subscriptions that hold the source were ever added: with none, a read waits for nobody.
    private var holders = 0

    /// A fan-out with no subscriber.
    nonisolated init() {}

    /// The number of subscribers still iterating.
    var count: Int {
        entries.removeAll { $0.subscription == nil }
        return entries.count
    }

    /// Whether no subscriber is left, as far as the last send saw: one that stopped iterating since still counts.
    var isEmpty: Bool { entries.isEmpty }

    /// Adds `subscription`, which receives every element sent from now on.
    func add(_ subscription: BoundedSubscription<Element>) {
        entries.append(Entry(subscription: subscription))
        if subscription.holdsSource { holders += 1 }
    }

    /// Offers `element` to every subscriber, dropping those that stopped iterating; with none, only reads a count.
    @inline(__always)
    func send(_ element: Element) {
        if !entries.isEmpty { offer(element) }
    }

    /// Offers `element` to every subscriber, dropping those that stopped iterating.
    @inline(never)
    private func offer(_ element: Element) {
        let current = entries
        var lost = false
        for entry in current {
            if let subscription = entry.subscription {
                subscription.offer(element)
            } else {
                lost = true
            }
        }
        if lost { entries.removeAll { $0.subscription == nil } }
    }

    /// The subscriptions that hold the source and have more than their room mark unread: those a source that can
    /// wait waits for before it reads on (``BoundedSubscription/waitForRoom()``).
    func subscriptionsOverRoomMark() -> [BoundedSubscription<Element>] {
        guard holders > 0 else { return [] }
        return entries.compactMap { entry in
            guard let subscription = entry.subscription, subscription.holdsSource, subscription.isOverRoomMark else {
                return nil
            }
            return subscription
        }
    }
}
