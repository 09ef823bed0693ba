import GNSSProtocol
import SingletonRegistry
import Synchronization

/// The ordered stream of events, and the one hop that brings what a session decoded to it.
extension LocationManager {
    /// A fresh stream of everything the manager gives out from now on, in the order the source produced it,
    /// keeping at most `bufferSize` unread events; it starts with the current state.
    ///
    /// Fixes, satellite views and state changes come as ``deliver(_:)-(Fix)``, ``deliver(_:)-(SkyView)`` and
    /// ``transition(to:)`` make them. With `includingSentences`, an NMEA source's raw sentences come too, each just
    /// before the fixes and satellite views it completes; lines with a bad checksum, control bytes or binary noise
    /// are left out, and a gpsd source gives none (its JSON is decoded, not passed on).
    ///
    /// A subscriber that reads too slowly loses its oldest events and gets a ``LocationEvent/dropped(_:)`` where
    /// they were; it never stalls the manager or the other subscribers. A subscriber that stops iterating (drops the
    /// sequence, or its task is cancelled) is removed.
    ///
    /// With `holdingSource`, a source that can wait (``LocationSource/canWait``: a file, standard input, a TCP peer,
    /// gpsd, a replay) is read no faster than this subscriber reads: after each read the session waits while more
    /// than a quarter of `bufferSize` events are unread, so the subscriber loses nothing. A serial device cannot
    /// wait; there the buffer fills and the oldest events are dropped and counted as above.
    public func events(
        bufferSize: Int = 256, includingSentences: Bool = true, holdingSource: Bool = false
    ) -> LocationEvents {
        let subscription = BoundedSubscription<LocationEvent>(capacity: bufferSize, holdsSource: holdingSource)
        subscription.offer(.state(state))
        eventFanOut.add(subscription)
        if includingSentences {
            sentenceFanOut.add(subscription)
            sentencesWanted.store(true, ordering: .relaxed)
        }
        return LocationEvents(subscription: subscription)
    }

    /// Whether a subscriber may want raw sentences: read by the session off the actor, before it splits them out.
    nonisolated var wantsSentences: Bool { sentencesWanted.load(ordering: .relaxed) }

    /// Delivers, in order and in one hop, what the session of `source` decoded from one read: each sentence to the
    /// subscribers that take sentences, each fix and satellite view through ``deliver(_:)-(Fix)`` and
    /// ``deliver(_:)-(SkyView)``, each problem to ``lastProblem``. Returns the subscriptions that hold the source
    /// and are behind: a source that can wait waits for them before it reads on.
    @discardableResult
    func deliver(_ outputs: [StreamDecoder.Output], from source: String) -> [BoundedSubscription<LocationEvent>] {
        for output in outputs {
            switch output {
            case .sentence(let sentence):
                sentenceFanOut.send(.sentence(sentence))
                if sentenceFanOut.isEmpty { sentencesWanted.store(false, ordering: .relaxed) }
            case .fix(let fix): deliver(fix)
            case .sky(let sky): deliver(sky)
            case .problem(let message): noteProblem(message)
            case .deviceGone:
                noteProblem(output.problemAfter(nil))
                transition(to: .waitingForFix(source: source))
            }
        }
        return eventFanOut.subscriptionsOverRoomMark()
    }
}
