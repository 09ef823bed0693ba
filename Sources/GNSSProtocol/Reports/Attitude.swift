/// A heading and attitude, as gpsd reports them in its `ATT` report: from an HDT sentence (true heading) or a True
/// North compass's `$PTNTHTM` (heading, pitch, roll, dip, each with its magnetometer status).
package struct Attitude: Sendable, Hashable {
    /// The true heading in degrees (ATT `heading`).
    package var heading: Double?
    /// The magnetometer's status when it measured the heading, a letter (`N` normal, `C` calibration alarm ...),
    /// ATT `mag_st`.
    package var magneticStatus: Character?
    /// The pitch angle (ATT `pitch`).
    package var pitch: Double?
    /// The status of the pitch (ATT `pitch_st`).
    package var pitchStatus: Character?
    /// The roll angle (ATT `roll`).
    package var roll: Double?
    /// The status of the roll (ATT `roll_st`).
    package var rollStatus: Character?
    /// The dip angle (ATT `dip`).
    package var dip: Double?
    /// The relative magnitude of the horizontal component of the earth's magnetic field (ATT `mag_x`).
    package var horizontalField: Double?
    /// The device that sent the sentence (ATT `device`).
    package var device: String?

    /// An attitude with nothing sent.
    package init() {}
}
