import GNSSProtocol
import Glibc

/// Averages fixes into a surveyed position: the pure arithmetic of a survey-in, with no clock and no isolation.
///
/// Positions are converted to metres north and east of the first fix used (a local tangent plane, with the WGS84
/// radii of curvature at that latitude), which is exact enough for the metres a receiver wanders. Means and
/// standard deviations are computed with Welford's method; the CEP radii are the 50th and 95th percentiles
/// (nearest rank) of the horizontal distances from the mean, so up to ``maximumStoredPoints`` positions are kept.
package struct SurveyAccumulator: Sendable {
    /// How many horizontal positions are kept for the CEP radii (about a week and a half at one fix a second).
    package static let maximumStoredPoints = 1_000_000

    /// Whether 2D fixes are rejected.
    package var requires3D: Bool
    /// The number of fixes averaged so far.
    package private(set) var used = 0
    /// Fixes rejected for lack of a position.
    package private(set) var rejectedNoFix = 0
    /// Fixes rejected for being 2D when 3D is required.
    package private(set) var rejected2D = 0

    private var reference: (latitude: Double, longitude: Double, metresNorth: Double, metresEast: Double)?
    /// The time of the last fix averaged: a later fix of the same time is the same epoch (gpsd, and a live NMEA
    /// source, send a receiver's first cycle as a fix after each of its position sentences), averaged once.
    private var lastUsedTime: GNSSTime?
    private var north = Welford()
    private var east = Welford()
    private var up = Welford()
    private var points: [(east: Double, north: Double)] = []

    /// Creates an empty accumulator.
    package init(requires3D: Bool = true) {
        self.requires3D = requires3D
    }

    /// Adds one fix, or counts it as rejected; a fix of the same time as the last one averaged is left out.
    package mutating func add(_ fix: Fix) {
        if let time = fix.time, time == lastUsedTime { return }
        guard fix.mode.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude,
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
        else {
            rejectedNoFix += 1
            return
        }
        if requires3D, fix.mode != .threeD {
            rejected2D += 1
            return
        }
        if reference == nil {
            let scale = Self.metresPerDegree(latitude: latitude)
            reference = (latitude, longitude, scale.north, scale.east)
        }
        let ref = reference!
        var deltaLongitude = longitude - ref.longitude
        if deltaLongitude > 180 { deltaLongitude -= 360 } else if deltaLongitude < -180 { deltaLongitude += 360 }
        let n = (latitude - ref.latitude) * ref.metresNorth
        let e = deltaLongitude * ref.metresEast
        north.add(n)
        east.add(e)
        if let altitude = fix.altitudeHAE ?? fix.altitudeMSL, altitude.isFinite { up.add(altitude) }
        if points.count < Self.maximumStoredPoints { points.append((e, n)) }
        used += 1
        lastUsedTime = fix.time
    }

    /// The result so far.
    package func result(requestedSeconds: Double, elapsedSeconds: Double, cancelled: Bool) -> SurveyResult {
        var result = SurveyResult(
            cancelled: cancelled, requestedSeconds: requestedSeconds, elapsedSeconds: elapsedSeconds,
            fixesUsed: used, rejectedNoFix: rejectedNoFix, rejected2D: rejected2D)
        guard let ref = reference, used > 0 else { return result }
        result.latitude = ref.latitude + north.mean / ref.metresNorth
        var longitude = ref.longitude + east.mean / ref.metresEast
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        result.longitude = longitude
        result.altitude = up.count > 0 ? up.mean : nil
        result.sigmaNorth = north.standardDeviation
        result.sigmaEast = east.standardDeviation
        result.sigmaUp = up.standardDeviation
        let distances = points.map { ($0.east - east.mean, $0.north - north.mean) }.map {
            ($0.0 * $0.0 + $0.1 * $0.1).squareRoot()
        }
        .sorted()
        result.cep50 = Self.percentile(0.50, ofSorted: distances)
        result.cep95 = Self.percentile(0.95, ofSorted: distances)
        return result
    }

    /// Metres per degree of latitude (north) and of longitude (east) at `latitude`, on the WGS84 ellipsoid.
    package static func metresPerDegree(latitude: Double) -> (north: Double, east: Double) {
        let a = 6_378_137.0
        let f = 1 / 298.257_223_563
        let e2 = f * (2 - f)
        let phi = latitude * .pi / 180
        let s = sin(phi)
        let w = (1 - e2 * s * s).squareRoot()
        let meridional = a * (1 - e2) / (w * w * w)
        let normal = a / w
        return (meridional * .pi / 180, normal * cos(phi) * .pi / 180)
    }

    /// The nearest-rank percentile `p` (0...1) of sorted values; `nil` when there are none.
    static func percentile(_ p: Double, ofSorted values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let rank = Int((p * Double(values.count)).rounded(.up))
        return values[min(max(rank, 1), values.count) - 1]
    }

    /// Running mean and variance (Welford).
    private struct Welford {
        var count = 0
        var mean = 0.0
        var m2 = 0.0

        mutating func add(_ x: Double) {
            count += 1
            let delta = x - mean
            mean += delta / Double(count)
            m2 += delta * (x - mean)
        }

        /// The sample standard deviation; `nil` with fewer than two values.
        var standardDeviation: Double? {
            count > 1 ? (m2 / Double(count - 1)).squareRoot() : nil
        }
    }
}
