import Glibc

/// The clock every case times itself with: `clock_gettime(CLOCK_MONOTONIC)`, read through the vDSO.
///
/// It is cheaper than `ContinuousClock.now` (no `Duration` arithmetic) and shared by all threads, so a timestamp
/// taken on one thread can be subtracted from one taken on another (`asyncstream.handoff` relies on that).
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point in the past.
    @inlinable
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    }
}
