/// A report the listener sends its watchers: a TPV or SKY object as ``GNSSProtocol/GPSDReportWriter`` writes it,
/// without newline, or a raw NMEA sentence with its line end.
package enum GPSDListenerReport: Sendable {
    /// A TPV object: one fix.
    case tpv([UInt8])
    /// A SKY object: the satellite view.
    case sky([UInt8])
    /// A raw NMEA sentence with its line end as read, for the watchers that asked for `"nmea":true`.
    case nmea([UInt8])

    /// The object's or the sentence's bytes.
    var object: [UInt8] {
        switch self {
        case .tpv(let object), .sky(let object), .nmea(let object): object
        }
    }
}
