/// What a source that sends no report for a long time may cost: after ``allowance`` bytes with no fix or satellite
/// view, the session waits ``pause`` on its timeline before each further chunk, so that unbounded garbage (a
/// `--nmea /dev/zero`, a peer sending noise) is read at a bounded rate, and the reader, held back meanwhile, blocks
/// instead of spinning. A report restores the allowance.
///
/// A gpsd line over gpsd's length limit is skipped at full read speed up to ``freeLineLength``: it is one line the
/// framer drops, not input that could keep the decoder busy, and the fixes after it must not wait.
///
/// A receiver sends a report at least once a second, in a few hundred bytes; the allowance is a megabyte, what a
/// 115,200-baud serial line carries in 90 seconds, so no real source is slowed.
struct GarbageThrottle: Sendable {
    /// Bytes read with no report before the pauses begin.
    static let allowance = 1 << 20
    /// The wait before each chunk once the allowance is spent: at most a reader's chunk (4 KiB, the session's
    /// ``ByteReader/chunkSize``) per pause, so about 80 KB/s of garbage.
    static let pause = Duration.milliseconds(50)
    /// How long a gpsd line may grow before its bytes count as garbage again: up to here, the bytes of a line over
    /// gpsd's length limit are skipped unthrottled (``StreamDecoder/throttledByteCount(of:)``).
    static let freeLineLength = 256 << 20

    /// Bytes read since the last report.
    private(set) var bytesWithoutReport = 0
    /// Whether the pauses have begun since the last report.
    private(set) var isThrottling = false

    /// Counts `count` bytes read; returns the wait before decoding them, if the allowance is spent.
    mutating func pauseBefore(_ count: Int) -> Duration? {
        bytesWithoutReport += count
        guard bytesWithoutReport > Self.allowance else { return nil }
        isThrottling = true
        return Self.pause
    }

    /// A report arrived: the allowance is whole again.
    mutating func reportArrived() {
        bytesWithoutReport = 0
        isThrottling = false
    }
}
