/// How fast a recorded NMEA source is replayed.
public enum ReplayPacing: Sendable, Hashable {
    /// As fast as the decoder goes.
    case asFastAsPossible
    /// Paced by the fixes' own timestamps, `speed` times real time (1 is real time, 10 is ten times faster).
    case timestamps(speed: Double)
}
