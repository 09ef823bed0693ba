/// What the NMEA decoder reports: one fix per fix cycle, and the satellite view when it completes.
public enum NMEAEvent: Sendable, Hashable {
    /// The merged fix of one fix cycle (a gpsd TPV report).
    case fix(Fix)
    /// The satellites in view with the dilutions of precision (a gpsd SKY report).
    case sky(SkyView)
}
