/// Merges the sentences of one fix cycle into one ``Fix`` and reports it once per cycle.
///
/// Timestamped sentences (GGA, RMC, GLL, GNS) drive the ``CycleDetector``; the others (GSA, VTG) add to the
/// cycle in progress. A fix is reported when the learned cycle ender arrives, or, before one is learned (the first
/// cycle, which gpsd never reports) or when it goes missing, as soon as the next cycle begins.
///
/// Continuation mode. gpsd 3.22 has one "cycle continuer", the depth sentence DBT: once a stream has sent one,
/// gpsd stops learning enders and reports after every sentence that carries no time (VTG, GSA, GSV, ZDA and
/// anything it does not decode, such as a chartplotter's HDG), never at GGA, RMC or GLL. A cycle's last report is
/// then its state as of its last untimestamped sentence: it includes a VTG that follows the RMC, and leaves out a
/// GGA stamped with this cycle's time that arrives just before the next cycle begins. In that mode we keep that
/// state and report it when the next cycle begins.
struct CycleAssembler: Sendable {
    /// Knots to metres per second, gpsd's `KNOTS_TO_MPS`.
    static let knotsToMetresPerSecond = 1852.0 / 3600.0

    var fix = Fix()
    var clock = NMEAClock()
    var detector = CycleDetector()
    var sky = SkyAssembler()
    /// Whether the cycle in progress holds anything worth reporting, and whether it was reported.
    var hasContent = false
    private var reported = false
    /// The previous cycle as it stood when the next one began, reported or not (gpsd's `oldfix`): the reference
    /// for derived speed and climb and for not downgrading a 3D fix to 2D on RMC/GLL. Only the fields those read,
    /// so that starting a cycle copies no whole `Fix`.
    private(set) var lastCycle: PreviousCycle?
    /// The fixes reported so far (the decoder's `fixes` count).
    private(set) var fixesReported = 0
    /// The sky views reported so far (the decoder's `skyViews` count).
    private(set) var skyViewsReported = 0
    /// Whether a DBT has been seen: gpsd's continuation mode (see the type's documentation).
    private(set) var continuation = false
    /// In continuation mode, whether `fix` is the cycle as of its last sentence without a time (what gpsd last
    /// reported); once a timestamped sentence of the same cycle changes it, that state is kept in `lastReportable`.
    private var fixIsReportable = false
    /// The kept state, meaningful while `hasLastReportable`. Not an optional `Fix`: clearing or testing that
    /// would move the whole fix through memory at every new cycle.
    private var lastReportable = Fix()
    /// Whether `lastReportable` holds this cycle's kept state.
    private var hasLastReportable = false
    /// The error model's last distance between the previous and this cycle's positions.
    var distanceCache: DistanceCache?
    /// The error estimates the sentence being applied gave itself (cleared by `sentenceDone`).
    var sentenceErrors = SentenceErrors()
    /// Whether the sentence being applied carried a time (set by `timestamp`, cleared by `sentenceDone`).
    private var timedSentence = false
    /// The device name put in every fix and view.
    let device: String?

    init(device: String? = nil) { self.device = device }

    /// The time of the cycle in progress, for the sky view.
    var time: GNSSTime? { fix.time }

    // MARK: Cycle handling

    /// Starts or continues a cycle for a timestamped sentence; reports the finished cycle when one ends.
    mutating func timestamp(
        _ type: NMEASentenceType, timeOfDay: Int, reports: inout some NMEAReportSink
    ) {
        timedSentence = true
        if detector.timestamp(type, timeOfDay: timeOfDay) {
            startCycle(&reports)
        } else if fixIsReportable {
            // This sentence is about to change the state gpsd last reported: keep that state first.
            lastReportable = fix
            hasLastReportable = true
            fixIsReportable = false
        }
        if let time = clock.resolve(timeOfDay: timeOfDay) { fix.time = time }
    }

    /// Reports the cycle in progress if it was not reported yet and a sentence stamped `timeOfDay` starts a new one.
    mutating func reportBeforeCycle(startingAt timeOfDay: Int, _ reports: inout some NMEAReportSink) {
        if detector.starts(timeOfDay: timeOfDay) { reportUnreported(&reports) }
    }

    /// Reports the cycle in progress if it was not reported yet and starts a new one.
    mutating func startCycle(_ reports: inout some NMEAReportSink) {
        reportUnreported(&reports)
        lastCycle = PreviousCycle(fix)
        fix.clearMeasurements()
        // The device is put in at the first cycle (a fix reported before any has none) and stays.
        if fix.device == nil { fix.device = device }
        hasContent = false
        reported = false
        fixIsReportable = false
        hasLastReportable = false
    }

    /// Reports the cycle in progress if it was not reported yet: in continuation mode as of its last sentence
    /// without a time (all of it when it had none).
    private mutating func reportUnreported(_ reports: inout some NMEAReportSink) {
        guard hasContent && !reported else { return }
        report(last: !fixIsReportable && hasLastReportable, &reports)
    }

    /// Reports the cycle when `type` is its learned ender (never in continuation mode).
    mutating func endIfEnder(_ type: NMEASentenceType, reports: inout some NMEAReportSink) {
        if fix.speed == nil && fix.mode >= .twoD { deriveSpeed() }
        applyErrorModel()
        if detector.ends(type) && !reported && hasContent && !continuation { report(last: false, &reports) }
    }

    /// Enters gpsd's continuation mode for good: the stream sent a DBT (depth) sentence.
    mutating func cycleContinuer() {
        continuation = true
    }

    /// Called after every sentence that passed its checksum. As gpsd after every sentence: a cycle without a
    /// speed so far gets one from the distance to the previous cycle's position. In continuation mode a sentence
    /// without a time is where gpsd reports, so the cycle's state is kept as it is now.
    @inline(__always)
    mutating func sentenceDone() {
        if fix.speed == nil && fix.mode >= .twoD { deriveSpeed() }
        applyErrorModel()
        if continuation && !timedSentence && hasContent { fixIsReportable = true }
        timedSentence = false
        sentenceErrors = []
    }

    /// gpsd's speed of last resort: distance from the previous cycle's position over the time between them.
    private mutating func deriveSpeed() {
        guard let prev = lastCycle, prev.mode >= .twoD, let t0 = prev.time, let t1 = fix.time, t1 > t0,
            let lat0 = prev.latitude, let lon0 = prev.longitude, let lat1 = fix.latitude, let lon1 = fix.longitude,
            let metres = Geodesic.distance(from: (lat0, lon0), to: (lat1, lon1))
        else { return }
        let speed = metres * 1_000 / Double(t1.millisecondsSince1970 - t0.millisecondsSince1970)
        if speed <= 9_999.9 { fix.speed = speed }
    }

    /// Reports the cycle's state as gpsd would: `lastReportable` when `last`, else `fix`.
    private mutating func report(last: Bool, _ reports: inout some NMEAReportSink) {
        reported = true
        fixesReported += 1
        if last {
            Self.report(&lastReportable, previous: lastCycle, &reports)
        } else {
            Self.report(&fix, previous: lastCycle, &reports)
        }
    }

    /// Reports `state` as gpsd reports it. The fields gpsd leaves out are masked in `state` itself for the call and
    /// put back after it, so that no masked copy of the whole fix is built; `reports` borrows the fix for the call
    /// and cannot see the masked state afterwards, as it has no access to the assembler.
    @inline(__always)
    private static func report(_ state: inout Fix, previous: PreviousCycle?, _ reports: inout some NMEAReportSink) {
        let kept = state.maskForReport(previous: previous)
        reports.fix(state)
        state.restore(kept)
    }

    /// Ends the input: reports a cycle that was not reported yet.
    mutating func finish(_ reports: inout some NMEAReportSink) {
        reportUnreported(&reports)
        if let view = sky.finish(time: fix.time) {
            skyViewsReported += 1
            reports.sky(view)
        }
    }

    /// Hands out a completed sky view before a sentence other than GSV/GSA is applied.
    @inline(__always)
    mutating func otherSentence(_ reports: inout some NMEAReportSink) {
        if var view = sky.otherSentence(time: fix.time) {
            view.device = device
            skyViewsReported += 1
            reports.sky(view)
        }
    }

    // MARK: Mode

    /// Sets the mode a position sentence implies, never downgrading 3D to 2D while altitude is being reported.
    mutating func setMode(_ mode: FixMode) {
        if mode == .twoD,
            fix.mode == .threeD || (lastCycle?.mode == .threeD && lastCycle?.altitudeMSL != nil)
        {
            fix.mode = .threeD
        } else {
            fix.mode = mode
        }
        hasContent = true
    }

    mutating func setPosition(latitude: Double, longitude: Double) {
        fix.latitude = latitude
        fix.longitude = longitude
        hasContent = true
    }
}

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
    /// Makes this fix what gpsd reports for it: no position, speed or track without a fix, no altitude without a
    /// 3D fix, and the climb from the previous cycle's altitude. Returns what ``restore(_:)`` needs to undo it.
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
        }
        if mode < .threeD {
            altitudeHAE = nil
            altitudeMSL = nil
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
