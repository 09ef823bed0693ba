/// gpsd JSON lines written straight from the NMEA decoder's reports: a TPV line per fix, a SKY line per sky view,
/// each formatted from the decoder's own storage without a copy of the report (`singletond decode`).
package struct GPSDReportLines: NMEAReportSink {
    /// The lines written and not yet taken.
    package var bytes: [UInt8] = []
    /// The writer, kept from line to line.
    private var writer = GPSDReportWriter()

    /// Creates an empty set of lines with room for `capacity` bytes.
    package init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func fix(_ fix: Fix) { writer.appendTPV(fix, to: &bytes) }
    mutating func sky(_ view: SkyView) { writer.appendSKY(view, to: &bytes) }
    mutating func noise(_ noise: PseudorangeNoise) { writer.appendGST(noise, to: &bytes) }
    mutating func attitude(_ attitude: Attitude) { writer.appendATT(attitude, to: &bytes) }
}
