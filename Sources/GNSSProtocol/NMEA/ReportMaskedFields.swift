/// The fields of a ``Fix`` that gpsd may leave out of, or derive for, a report.
struct ReportMaskedFields: Sendable {
    /// The fix's latitude.
    var latitude: Double?
    /// The fix's longitude.
    var longitude: Double?
    /// The fix's speed.
    var speed: Double?
    /// The fix's true track.
    var track: Double?
    /// The fix's magnetic track.
    var magneticTrack: Double?
    /// The fix's status.
    var status: Int?
    /// The fix's height above the ellipsoid.
    var altitudeHAE: Double?
    /// The fix's height above mean sea level.
    var altitudeMSL: Double?
    /// The fix's climb.
    var climb: Double?
    /// The fix's geoid separation.
    var geoidSeparation: Double?
    /// The fix's magnetic variation.
    var magneticVariation: Double?
    /// The fix's error estimates that gpsd prints only with a 2D fix: epx, epy, epv, eph, sep, eps, epd.
    var horizontalErrors: (Double?, Double?, Double?, Double?, Double?, Double?, Double?)
    /// The fix's climb error, which gpsd prints only with a 3D fix.
    var epc: Double?
    /// The depth below the transducer, which gpsd prints only with a 2D fix.
    var depth: Double?
    /// The DGPS age and station, which gpsd prints only with a 2D fix.
    var dgps: (Double?, Int?)
    /// The velocity components, which gpsd prints only with a 3D fix.
    var velocity: (Double?, Double?, Double?)
}

extension Fix {
    /// Makes this fix what gpsd reports for it: no position, altitude, speed or track without a fix, no climb,
    /// geoid separation or velocity without a 3D fix, and the climb from the previous cycle's altitude. Returns what ``restore(_:)`` needs to undo it.
    mutating func maskForReport(previous: PreviousCycle?) -> ReportMaskedFields {
        let kept = ReportMaskedFields(
            latitude: latitude, longitude: longitude, speed: speed, track: track, magneticTrack: magneticTrack,
            status: status, altitudeHAE: altitudeHAE, altitudeMSL: altitudeMSL, climb: climb,
            geoidSeparation: geoidSeparation, magneticVariation: magneticVariation,
            horizontalErrors: (epx, epy, epv, eph, sep, eps, epd), epc: epc, depth: depth,
            dgps: (dgpsAge, dgpsStation), velocity: (velocityNorth, velocityEast, velocityDown))
        if mode < .twoD {
            latitude = nil
            longitude = nil
            speed = nil
            track = nil
            magneticTrack = nil
            status = nil
            magneticVariation = nil
            (epx, epy, epv, eph, sep, eps, epd) = (nil, nil, nil, nil, nil, nil, nil)
            depth = nil
            (dgpsAge, dgpsStation) = (nil, nil)
            altitudeHAE = nil
            altitudeMSL = nil
        }
        if mode < .threeD {
            climb = nil
            geoidSeparation = nil
            epc = nil
            (velocityNorth, velocityEast, velocityDown) = (nil, nil, nil)
        }
        if mode == .threeD, let prev = previous, prev.mode == .threeD, let t0 = prev.time, let t1 = time,
            let a0 = prev.altitudeMSL, let a1 = altitudeMSL, t1 > t0
        {
            climb = (a1 - a0) * 1_000 / Double(t1.millisecondsSince1970 - t0.millisecondsSince1970)
        }
        return kept
    }

    /// Puts back the fields ``maskForReport(previous:)`` changed.
    mutating func restore(_ kept: ReportMaskedFields) {
        latitude = kept.latitude
        longitude = kept.longitude
        speed = kept.speed
        track = kept.track
        magneticTrack = kept.magneticTrack
        status = kept.status
        altitudeHAE = kept.altitudeHAE
        altitudeMSL = kept.altitudeMSL
        climb = kept.climb
        geoidSeparation = kept.geoidSeparation
        magneticVariation = kept.magneticVariation
        (epx, epy, epv, eph, sep, eps, epd) = kept.horizontalErrors
        epc = kept.epc
        depth = kept.depth
        (dgpsAge, dgpsStation) = kept.dgps
        (velocityNorth, velocityEast, velocityDown) = kept.velocity
    }
}
