/// Receives the sentences an ``NMEAFramer`` cuts out.
protocol NMEASentenceSink {
    /// Handles one sentence, from `$` or `!` to before the line end.
    mutating func sentence(_ bytes: UnsafeBufferPointer<UInt8>, reports: inout some NMEAReportSink)

    /// Handles the sentence starting at `p[0]` (`$` or `!`), `available` bytes being readable from `p`, when it
    /// is a plain line: it ends with `*HH` and then CR or LF, it holds no other line end or sentence start, and it
    /// is at most ``NMEAFramer/maximumSentenceLength`` bytes long. Returns its length (the CR or LF at `p[length]`),
    /// or 0, having done nothing, when the framer has to frame the line itself; it may return 0 for any line.
    mutating func lineSentence(
        at p: UnsafePointer<UInt8>, available: Int, reports: inout some NMEAReportSink
    ) -> Int

    /// Takes the GPS−UTC offset a binary packet between the sentences stated (a u-blox UBX packet).
    mutating func leapSeconds(_ seconds: Int)
}
