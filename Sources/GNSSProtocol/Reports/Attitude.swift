/// A heading, as gpsd reports it in its `ATT` report: from an HDT sentence (true heading), in degrees.
package struct Attitude: Sendable, Hashable {
    /// The true heading in degrees, 0...360 (ATT `heading`).
    package var heading: Double?
    /// The device that sent the sentence (ATT `device`).
    package var device: String?

    /// An attitude with nothing sent.
    package init() {}
}
