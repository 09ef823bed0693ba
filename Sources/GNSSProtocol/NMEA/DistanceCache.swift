/// The last distance the error model computed, with the positions it is between: gpsd recomputes it after every
/// sentence of a cycle (for the derived speed and the track error), where it stays the same until a position
/// changes.
struct DistanceCache: Sendable {
    /// The earlier position, (latitude, longitude) in degrees.
    var start: (Double, Double)
    /// The later position.
    var end: (Double, Double)
    /// The later position's reduced latitude: the next cycle's distance starts there.
    var endReduced: ReducedLatitude
    /// The distance in metres, `nil` where Vincenty's formula does not converge.
    var distance: Double?
}
