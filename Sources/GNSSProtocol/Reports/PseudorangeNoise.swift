/// The pseudorange noise statistics of one GST sentence, as gpsd reports them (its `GST` report): standard
/// deviations in metres and the error ellipse's orientation in degrees from true north; an absent value was not
/// sent.
package struct PseudorangeNoise: Sendable, Hashable {
    /// The time of the fix the statistics describe: the sentence's time of day on the stream's current date, `nil`
    /// before a date is known (GST `time`).
    package var time: GNSSTime?
    /// The RMS of the standard deviations of the ranges that went into the solution (GST `rms`).
    package var rms: Double?
    /// The standard deviation along the error ellipse's semi-major axis (GST `major`).
    package var major: Double?
    /// The standard deviation along the error ellipse's semi-minor axis (GST `minor`).
    package var minor: Double?
    /// The orientation of the semi-major axis, in degrees from true north (GST `orient`).
    package var orientation: Double?
    /// The standard deviation of the latitude error (GST `lat`).
    package var latitude: Double?
    /// The standard deviation of the longitude error (GST `lon`).
    package var longitude: Double?
    /// The standard deviation of the altitude error (GST `alt`).
    package var altitude: Double?
    /// The device that sent the sentence (GST `device`).
    package var device: String?

    /// Statistics with nothing sent.
    package init() {}
}
