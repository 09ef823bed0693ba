/// Where the NMEA decoder's reports go: a fix per fix cycle, and a sky view when one completes.
///
/// Each report is lent for the call: a sink that formats it (``GPSDReportLines``) reads the decoder's own storage,
/// and only a sink that keeps it (``NMEAEventForwarder``, behind the public `emit` closures) copies it.
protocol NMEAReportSink {
    /// Receives the merged fix of one fix cycle.
    mutating func fix(_ fix: Fix)
    /// Receives a completed satellite view.
    mutating func sky(_ view: SkyView)
    /// Receives the noise statistics of a GST sentence.
    mutating func noise(_ noise: PseudorangeNoise)
    /// Receives the heading of an HDT sentence.
    mutating func attitude(_ attitude: Attitude)
}

/// Hands each report to an `emit` closure as an ``NMEAEvent``: the sink behind ``NMEADecoder``'s public API.
struct NMEAEventForwarder: NMEAReportSink {
    /// The caller's closure, for the length of one `feed` or `finish` call.
    let emit: (NMEAEvent) -> Void

    mutating func fix(_ fix: Fix) { emit(.fix(fix)) }
    mutating func sky(_ view: SkyView) { emit(.sky(view)) }
    /// Not an ``NMEAEvent``: the noise statistics go to gpsd's output only (``GPSDReportLines``).
    mutating func noise(_ noise: PseudorangeNoise) {}
    /// Not an ``NMEAEvent`` either: the heading goes to gpsd's output only.
    mutating func attitude(_ attitude: Attitude) {}
}
