/// Keeps a log line that repeats for one cause from flooding the log: the first occurrence of a cause is logged,
/// later ones are counted, and a summary of the count is logged at most once every ``interval``.
///
/// It keeps no timer: a summary goes out with the next occurrence after the interval.
package struct RepeatLimiter<Cause: Hashable & Sendable>: Sendable {
    /// What to log for an occurrence.
    package enum Verdict: Equatable, Sendable {
        /// The first occurrence of its cause (or the first after a drain): log it as it is.
        case first
        /// `count` occurrences of the cause, this one included, since the last line about it.
        case summary(count: Int)
    }

    /// The shortest time between two lines about one cause.
    package let interval: Duration
    private var counts: [Cause: (unlogged: Int, loggedAt: Duration)] = [:]

    /// A limiter that lets one line per cause through every `interval`.
    package init(interval: Duration = .seconds(60)) {
        self.interval = interval
    }

    /// An occurrence of `cause` at `now`: whether to log it, and how; `nil` to stay quiet.
    package mutating func occurrence(of cause: Cause, at now: Duration) -> Verdict? {
        guard var entry = counts[cause] else {
            counts[cause] = (0, now)
            return .first
        }
        entry.unlogged += 1
        guard now - entry.loggedAt >= interval else {
            counts[cause] = entry
            return nil
        }
        counts[cause] = (0, now)
        return .summary(count: entry.unlogged)
    }

    /// The occurrences of each cause since its last line, for the causes that have any, and forgets every cause:
    /// what is left to say when the occurrences end for good (at shutdown).
    package mutating func drain() -> [(cause: Cause, count: Int)] {
        defer { counts = [:] }
        return counts.compactMap { cause, entry in entry.unlogged > 0 ? (cause, entry.unlogged) : nil }
    }

    /// Forgets `cause`: its next occurrence is a first one again (a failure that ended and came back).
    package mutating func forget(_ cause: Cause) {
        counts[cause] = nil
    }
}
