/// What gpsd 3.22's mode rules read of its `lastfix` and `oldfix`: `gpsd_error_model()` copies the merged fix to
/// `lastfix` after every sentence that leaves it with a time, and `lastfix` to `oldfix` first when that time moved
/// by 10 ms or more. A fix without a time (before the receiver gave a date) changes neither.
struct TimedFixes: Sendable {
    /// The time of `lastfix`, in milliseconds since 1970, or `nil` before any.
    private var lastTime: Int64?
    /// The mode of `lastfix` (gpsd's cleared fix has mode 0).
    private(set) var lastMode = FixMode.unknown
    /// Whether `lastfix` had an altitude.
    private(set) var lastAltitude = false
    /// Whether `oldfix` had an altitude.
    private(set) var oldAltitude = false

    /// Records the merged fix after a sentence, stamped `time`.
    @inline(__always)
    mutating func record(time: GNSSTime, mode: FixMode, altitude: Bool) {
        let t = time.millisecondsSince1970
        if lastTime.map({ abs(t - $0) >= 10 }) ?? true { oldAltitude = lastAltitude }
        lastTime = t
        lastMode = mode
        lastAltitude = altitude
    }
}
