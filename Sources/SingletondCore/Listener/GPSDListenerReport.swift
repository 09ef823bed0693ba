/// A report the listener sends its watchers: a TPV, SKY, GST or ATT object as ``GNSSProtocol/GPSDReportWriter``
/// writes it, without newline, a raw NMEA sentence with its line end, or the serial time of a new second.
package enum GPSDListenerReport: Sendable {
    /// A TPV object: one fix.
    case tpv([UInt8])
    /// A SKY object: the satellite view.
    case sky([UInt8])
    /// A GST object: the pseudorange noise statistics of one GST sentence.
    case gst([UInt8])
    /// An ATT object: the heading of one HDT sentence.
    case att([UInt8])
    /// A raw NMEA sentence with its line end as read, for the watchers that asked for `"nmea":true` or `"raw"`.
    case nmea([UInt8])
    /// The time a fix's sentences gave for a new second (`real`) and when the fix was received (`clock`), both in
    /// nanoseconds since 1970, for the watchers that asked for `"pps":true`: gpsd's `TOFF`.
    case timeOffset(real: Int64, clock: Int64)
}
