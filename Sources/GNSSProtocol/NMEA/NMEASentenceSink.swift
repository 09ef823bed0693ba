/// Receives the sentences an ``NMEAFramer`` cuts out.
protocol NMEASentenceSink {
    /// Handles one sentence, from `$` or `!` to before the line end.
    mutating func sentence(_ bytes: UnsafeBufferPointer<UInt8>, reports: inout some NMEAReportSink)
}
