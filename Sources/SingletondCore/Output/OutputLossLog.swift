import SystemCalls

/// What ``FixOutput`` says about TPV lines it could not write, so that a broken output costs a few log lines, not one
/// per fix.
///
/// A write error is logged when it begins, in the words of its `errno`; while it lasts, the lines lost are counted
/// and summarised at most once every ``summaryInterval``; the first line written again ends it, with the total.
/// Lines dropped because the reader is slow (over ``FixOutput/maximumPendingBytes`` waiting) are said once and then
/// summarised the same way; a slow reader has no end to report, since writes and drops alternate. Each summary ends
/// with the running total of lines lost. At the stop, the lines lost since the last line about each cause are
/// counted in one more line (``finish()``), and the output's totals in a last one (``totals()``), lost or not.
struct OutputLossLog {
    /// The shortest time between two lines about the same loss.
    static let summaryInterval: Duration = .seconds(60)

    /// Why lines are lost.
    enum Cause: Hashable {
        /// `write(2)` failed with this `errno`.
        case writeError(Int32)
        /// Too much was waiting for a slow reader.
        case slowReader
    }

    /// The output's name in messages: `standard output` or the path.
    let name: String
    /// The write error now failing every line, if any, and the lines lost to it since it began.
    private var error: (code: Int32, lost: Int)?
    private var repeats = RepeatLimiter<Cause>(interval: Self.summaryInterval)
    /// The lines the output had no room for when it closed.
    private var notTaken = 0
    /// The lines written, and those lost to any cause, since the output opened.
    private(set) var writtenTotal = 0
    private(set) var lostTotal = 0

    init(name: String) {
        self.name = name
    }

    /// A line was lost to `cause` at `now`: what to log, if anything.
    mutating func lost(_ cause: Cause, at now: Duration) -> (level: LogLevel, text: String)? {
        lostTotal += 1
        if case .writeError(let code) = cause {
            if let current = error, current.code != code { repeats.forget(.writeError(current.code)) }
            error = (code, (error?.code == code ? error?.lost ?? 0 : 0) + 1)
        }
        switch (cause, repeats.occurrence(of: cause, at: now)) {
        case (_, nil):
            return nil
        case (.writeError(let code), .first):
            return (
                .error, "cannot write TPV lines to \(name): \(Self.describe(code)); dropping lines until it works again"
            )
        case (.writeError(let code), .summary(let count)):
            let text = "cannot write TPV lines to \(name): \(Self.describe(code)); \(count) more lines lost"
            return (.error, text + " (\(lostTotal) in all)")
        case (.slowReader, .first):
            return (.warning, "output \(name) is too slow: dropping TPV lines while over 1 MiB waits for it")
        case (.slowReader, .summary(let count)):
            return (.warning, "output \(name) is too slow: \(count) more TPV lines dropped (\(lostTotal) lost in all)")
        }
    }

    /// A line was written: ends a write error, with the count of lines it cost.
    mutating func wrote() -> (level: LogLevel, text: String)? {
        writtenTotal += 1
        guard let current = error else { return nil }
        repeats.forget(.writeError(current.code))
        error = nil
        return (.notice, "writing TPV lines to \(name) again (\(current.lost) lines lost)")
    }

    /// A line was not written because the output was closing and had no room for it: counted for ``finish()``.
    mutating func notTakenAtTheStop() -> (level: LogLevel, text: String)? {
        notTaken += 1
        lostTotal += 1
        return nil
    }

    /// The output is closing: a line for each cause with lines lost since its last line, with their count, and one
    /// for the lines the output had no room for.
    mutating func finish() -> [(level: LogLevel, text: String)] {
        error = nil
        defer { notTaken = 0 }
        let unwritten: [(level: LogLevel, text: String)] =
            notTaken == 0
            ? [] : [(.warning, "output \(name) took no more lines at the stop: \(notTaken) TPV lines not written")]
        return unwritten
            + repeats.drain().map { cause, count in
                switch cause {
                case .writeError(let code):
                    (
                        .error,
                        "cannot write TPV lines to \(name): \(Self.describe(code)); \(count) more lines lost before the stop"
                    )
                case .slowReader:
                    (.warning, "output \(name) is too slow: \(count) more TPV lines dropped before the stop")
                }
            }
    }

    /// The output's last line at the stop: the TPV lines written and lost since it opened, whatever the cause.
    func totals() -> (level: LogLevel, text: String) {
        (lostTotal == 0 ? .info : .warning, "output \(name): \(writtenTotal) TPV lines written, \(lostTotal) lost")
    }

    private static func describe(_ code: Int32) -> String {
        System.errorMessage(code)
    }
}
