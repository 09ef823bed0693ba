#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// gpsd's `gpsd_error_model()` (`gpsd/libgpsd_core.c`, 3.22), run on the cycle as merged so far after every
/// sentence, as gpsd runs it after every packet: the derived members (geoid separation and magnetic variation from
/// gpsd's tables, magnetic track, the altitude a sentence left out) and the error estimates.
///
/// The error estimates are gpsd's: a dilution of precision times gpsd's user equivalent range error (UERE), a 95%
/// confidence figure: 15 m horizontally per axis, 23 m vertically, 19 m for the horizontal and spherical radius
/// (3.75, 5.75 and 4.75 m with DGPS). `epx`, `epy`, `eps` and `epc` follow the latest DOPs; `eph`, `epv`, `sep` and
/// `epd` keep the first value the cycle got, as gpsd keeps them.
extension CycleAssembler {
    /// gpsd's `H_UERE_NO_DGPS`, `V_UERE_NO_DGPS`, `P_UERE_NO_DGPS` and their DGPS counterparts, in metres.
    private static func uere(dgps: Bool) -> (horizontal: Double, vertical: Double, position: Double) {
        dgps ? (3.75, 5.75, 4.75) : (15, 23, 19)
    }

    /// gpsd's `EMAX`: `x` when it is greater than `y`, else `y` (so a NaN `y` wins).
    @inline(__always)
    private static func emax(_ x: Double, _ y: Double) -> Double { x > y ? x : y }

    /// gpsd's `DEG_NORM`: one turn added to a negative angle, or taken from one of 360 or more.
    @inline(__always)
    static func normalised(_ degrees: Double) -> Double {
        if degrees < 0 { return degrees + 360 }
        if degrees >= 360 { return degrees - 360 }
        return degrees
    }

    /// The distance between two positions on the ellipsoid, computed once for as long as they stay the same: gpsd
    /// recomputes it after every sentence of a cycle, for the speed it derives and for the track error. A start at
    /// the last end's latitude (the previous cycle's position, as a new cycle begins) reuses its reduced latitude.
    mutating func distance(from start: (Double, Double), to end: (Double, Double)) -> Double? {
        if let cached = distanceCache, cached.start == start, cached.end == end { return cached.distance }
        let startReduced =
            if let cached = distanceCache, cached.endReduced.latitude.bitPattern == start.0.bitPattern {
                cached.endReduced
            } else {
                ReducedLatitude(start.0)
            }
        let endReduced = ReducedLatitude(end.0)
        let result = Geodesic.distance(from: startReduced, start.1, to: endReduced, end.1)
        distanceCache = DistanceCache(start: start, end: end, endReduced: endReduced, distance: result)
        return result
    }

    /// Applies gpsd's error model to `fix`, with the DOPs of `sky` as they stand.
    mutating func applyErrorModel() {
        if fix.climb == nil, let down = fix.velocityDown { fix.climb = -down }
        if let north = fix.velocityNorth, let east = fix.velocityEast {
            if fix.speed == nil { fix.speed = (north * north + east * east).squareRoot() }
            if fix.track == nil { fix.track = atan2(east, north) * 57.2957795130823208767981548141051703 }
        }
        if let lat = fix.latitude, let lon = fix.longitude {
            if fix.geoidSeparation == nil { fix.geoidSeparation = Geoid.separation(latitude: lat, longitude: lon) }
            // Some receivers send 0.0 for a variation they do not know: gpsd takes its model for anything that small.
            if abs(fix.magneticVariation ?? 0) <= 0.09 {
                fix.magneticVariation = MagneticVariation.degrees(latitude: lat, longitude: lon)
            }
        }
        if let variation = fix.magneticVariation {
            if fix.magneticTrack == nil, let track = fix.track {
                fix.magneticTrack = track + variation
            } else if let magnetic = fix.magneticTrack, fix.track == nil {
                fix.track = magnetic - variation
            }
        }
        if let track = fix.track { fix.track = Self.normalised(track) }
        if let magnetic = fix.magneticTrack { fix.magneticTrack = Self.normalised(magnetic) }
        if let separation = fix.geoidSeparation {
            if let hae = fix.altitudeHAE, fix.altitudeMSL == nil {
                fix.altitudeMSL = hae - separation
            } else if fix.altitudeHAE == nil, let msl = fix.altitudeMSL {
                fix.altitudeHAE = msl + separation
            }
        }
        if fix.time != nil, fix.ept == nil { fix.ept = 0.005 }
        guard fix.mode >= .twoD else { return }
        let uere = Self.uere(dgps: fix.status == 2)
        let dops = sky.view
        if !sentenceErrors.contains(.horizontal) {
            if let xdop = dops.xdop { fix.epx = xdop * uere.horizontal }
            if let ydop = dops.ydop { fix.epy = ydop * uere.horizontal }
        }
        if fix.mode >= .threeD, fix.epv == nil, let vdop = dops.vdop { fix.epv = vdop * uere.vertical }
        if fix.eph == nil, let hdop = dops.hdop { fix.eph = hdop * uere.position }
        if fix.sep == nil, let pdop = dops.pdop { fix.sep = pdop * uere.position }
        guard let previous = lastCycle, previous.mode >= .twoD, let t0 = previous.time, let t1 = fix.time,
            t1 > t0
        else { return }
        let seconds = Double(t1.millisecondsSince1970 - t0.millisecondsSince1970) / 1_000
        let spread = Self.emax(fix.epx ?? .nan, fix.epy ?? .nan)
        if !sentenceErrors.contains(.speed), let oldX = previous.epx, let oldY = previous.epy {
            let eps = (Self.emax(oldX, oldY) + spread) / seconds
            if eps.isFinite { fix.eps = eps }
        }
        if fix.epd == nil, let lat0 = previous.latitude, let lon0 = previous.longitude, let lat1 = fix.latitude,
            let lon1 = fix.longitude, let adjacent = distance(from: (lat0, lon0), to: (lat1, lon1)),
            adjacent > spread
        {
            let hypotenuse = (adjacent * adjacent + spread * spread).squareRoot()
            fix.epd = 57.2957795130823208767981548141051703 * 2 * asin(spread / hypotenuse)
        }
        if let epv = fix.epv, let oldV = previous.epv { fix.epc = (oldV + epv) / seconds }
    }
}
