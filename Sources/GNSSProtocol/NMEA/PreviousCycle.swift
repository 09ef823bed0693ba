/// What a new cycle keeps of the previous one: the fields that derived speed, climb and mode read.
struct PreviousCycle: Sendable {
    /// The previous cycle's mode.
    var mode: FixMode
    /// The previous cycle's time.
    var time: GNSSTime?
    /// The previous cycle's latitude.
    var latitude: Double?
    /// The previous cycle's longitude.
    var longitude: Double?
    /// The previous cycle's altitude above mean sea level.
    var altitudeMSL: Double?
    /// The previous cycle's longitude error estimate, for the speed error.
    var epx: Double?
    /// The previous cycle's latitude error estimate, for the speed error.
    var epy: Double?
    /// The previous cycle's vertical error estimate, for the climb error.
    var epv: Double?

    /// The fields of `fix` that a later cycle reads.
    init(_ fix: Fix) {
        mode = fix.mode
        time = fix.time
        latitude = fix.latitude
        longitude = fix.longitude
        altitudeMSL = fix.altitudeMSL
        epx = fix.epx
        epy = fix.epy
        epv = fix.epv
    }
}
