/// Converts durations to `poll(2)` timeouts.
package enum PollTimeout {
    /// Whole milliseconds, rounded up so that a wait never ends before its deadline, capped at `Int32.max`.
    package static func milliseconds(_ duration: Duration) -> Int32 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let ms = seconds.multipliedReportingOverflow(by: 1_000)
        guard !ms.overflow else { return Int32.max }
        let total = ms.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: total)
    }
}
