import GNSSProtocol

/// One element of ``LocationManager/events(bufferSize:includingSentences:holdingSource:)``: what the source produced, in the order
/// it produced it.
///
/// A raw sentence comes before the fixes and satellite views it completes, and a state change before the fixes
/// that follow it (the ``LocationState/fixed(source:)`` that a fix brings comes just before that fix).
public enum LocationEvent: Sendable, Hashable {
    /// A fix, with or without a position, as ``LocationManager/deliver(_:)-(Fix)`` received it.
    case fix(Fix)
    /// A satellite view, as ``LocationManager/deliver(_:)-(SkyView)`` received it.
    case satellites(SkyView)
    /// The manager's new state; the first element of every subscription is the state it started in.
    case state(LocationState)
    /// A raw NMEA sentence, from `$` or `!` to its line end as read (`\r\n`, `\n` or `\r`). Only sentences pass:
    /// printable ASCII with a matching checksum when they have one. A gpsd source gives none.
    case sentence([UInt8])
    /// This subscriber read too slowly and lost this many of the oldest events just before the next one. The
    /// stream itself makes this element; the manager never sends it.
    case dropped(Int)
}
