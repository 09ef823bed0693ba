/// Learns which sentence types end a receiver's fix cycle, the way gpsd does.
///
/// A cycle starts when a timestamped sentence (GGA, RMC, GLL, GNS) carries a new time (more than 10 ms from the
/// cycle's time); the timestamped sentence type seen just before ended the previous cycle. As gpsd's `cycle_enders`,
/// every type that ever ended a cycle is an ender for good, and a cycle is reported at each that arrives: a receiver
/// whose order changes from cycle to cycle gets several reports of a cycle, the early ones partial, the last one
/// whole, as from gpsd. Before any cycle has ended, cycles are reported when the next one begins.
struct CycleDetector: Sendable {
    private var lastTimed: NMEASentenceType?
    /// The types that ever ended a cycle, one bit per raw value: gpsd's `cycle_enders`, which it never clears.
    private var everEnded: UInt32 = 0
    /// The time of day (ms) of the current cycle, once a timestamped sentence has been seen.
    private(set) var cycleTime: Int?

    /// Registers a timestamped sentence; returns `true` when it starts a new cycle.
    mutating func timestamp(_ type: NMEASentenceType, timeOfDay: Int) -> Bool {
        defer { lastTimed = type }
        guard starts(timeOfDay: timeOfDay) else { return false }
        if cycleTime != nil, let last = lastTimed { everEnded |= 1 << last.rawValue }
        cycleTime = timeOfDay
        return true
    }

    /// Whether a timestamped sentence stamped `timeOfDay` would start a new cycle.
    func starts(timeOfDay: Int) -> Bool {
        guard let current = cycleTime else { return true }
        return abs(timeOfDay - current) > 10
    }

    /// Whether `type` ever ended a cycle: gpsd reports at every such type.
    @inline(__always) func ends(_ type: NMEASentenceType) -> Bool { everEnded & 1 << type.rawValue != 0 }

    /// Whether a cycle has ended yet (gpsd's `cycle_end_reliable`): before that, gpsd reports after every sentence
    /// that sets a position or mode.
    var hasEnded: Bool { everEnded != 0 }
}
