import SingletonRegistry

/// Makes concurrent test cases meet in pairs, so that each case's critical window overlaps another's.
///
/// A case waits at ``arrive()`` until another case arrives, or until it is the only case in flight (so that a run
/// with parallelism 1 never waits). Cases call ``enter()`` first and ``leave()`` last.
final class PairRendezvous: Sendable {
    private struct State {
        var inFlight = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = SanitizerVisibleMutex(State())

    func enter() {
        state.withLock { $0.inFlight += 1 }
    }

    func arrive() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            enum Action {
                case meet(CheckedContinuation<Void, Never>)
                case goOn
                case wait
            }
            let action: Action = state.withLock { state in
                if let waiter = state.waiter {
                    state.waiter = nil
                    return .meet(waiter)
                }
                if state.inFlight <= 1 { return .goOn }
                state.waiter = continuation
                return .wait
            }
            switch action {
            case .meet(let partner):
                partner.resume()
                continuation.resume()
            case .goOn:
                continuation.resume()
            case .wait:
                break
            }
        }
    }

    func leave() {
        let lonely: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.inFlight -= 1
            guard state.inFlight <= 1, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        lonely?.resume()
    }
}
