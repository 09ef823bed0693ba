/// Learns which sentence type ends a receiver's fix cycle, the way gpsd does.
///
/// A cycle starts when a timestamped sentence carries a new time (more than 10 ms from the cycle's time); the
/// timestamped sentence type seen just before is then marked as a cycle ender. When an ender arrives again, the
/// cycle is complete and its fix is reported at once.
struct CycleDetector: Sendable {
    private var enders: UInt16 = 0
    private var lastTimed: NMEASentenceType?
    /// The time of day (ms) of the current cycle, once a timestamped sentence has been seen.
    private(set) var cycleTime: Int?

    /// Registers a timestamped sentence; returns `true` when it starts a new cycle.
    mutating func timestamp(_ type: NMEASentenceType, timeOfDay: Int) -> Bool {
        defer { lastTimed = type }
        guard let current = cycleTime else {
            cycleTime = timeOfDay
            return true
        }
        var delta = timeOfDay - current
        if delta < 0 { delta = -delta }
        guard delta > 10 else { return false }
        if let last = lastTimed { enders |= last.bit }
        cycleTime = timeOfDay
        return true
    }

    /// Whether `type` has been learned as a cycle ender.
    @inline(__always) func ends(_ type: NMEASentenceType) -> Bool { enders & type.bit != 0 }
}
