import SingletonRegistry

/// Picks, from the task manager's state changes, the progress of the survey a control client started or joined: the
/// `PROGRESS` lines it is sent, until its survey leaves the running state.
///
/// A client that asks while a cancelled survey is still winding down gets a new survey, which starts once the
/// cancelled one has ended: the states until then are the cancelled one's, and are skipped.
struct SurveyProgressFilter {
    /// What to do with a state.
    enum Verdict: Equatable {
        /// Send the client its survey's progress.
        case forward(Double)
        /// Not the client's survey, or not yet: go on.
        case skip
        /// The client's survey has left the running state: stop.
        case end
    }

    /// Whether the states are still those of a cancelled survey winding down.
    private var skippingCancelled: Bool
    /// Whether the client's survey has been seen running.
    private var seenRunning = false

    /// A filter for a client that subscribed while `cancelledRunWindsDown` held
    /// (``SingletonRegistry/LongTaskManager/runningJobIsCancelled``).
    init(cancelledRunWindsDown: Bool) {
        skippingCancelled = cancelledRunWindsDown
    }

    /// The verdict on the next state.
    mutating func verdict(on state: LongTaskState) -> Verdict {
        guard case .running(let name, let fraction) = state, name == SurveyJob.name else {
            if skippingCancelled {
                skippingCancelled = false
                return .skip
            }
            return seenRunning ? .end : .skip
        }
        guard !skippingCancelled else { return .skip }
        seenRunning = true
        return .forward(fraction)
    }
}
