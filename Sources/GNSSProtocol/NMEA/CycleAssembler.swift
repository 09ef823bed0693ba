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
/// GGA stamped with this cycle's time that arrives just before the next cycle begins. In that mode we report at the
/// same sentences, when the cycle changed since our last report of it: the last report of a cycle is gpsd's, as
/// soon as gpsd sends it, without gpsd's repeats.
struct CycleAssembler: Sendable {
    /// Knots to metres per second, gpsd's `KNOTS_TO_MPS`.
    static let knotsToMetresPerSecond = 1852.0 / 3600.0

    var fix = Fix()
    var clock = NMEAClock()
    var detector = CycleDetector()
    var sky: SkyAssembler
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
    /// In continuation mode, the cycle as last reported, meaningful while `reported`: a sentence without a time
    /// reports the cycle again only when it changed since.
    private var lastReported = Fix()
    /// The error model's last distance between the previous and this cycle's positions.
    var distanceCache: DistanceCache?
    /// The error estimates the sentence being applied gave itself (cleared by `sentenceDone`).
    var sentenceErrors = SentenceErrors()
    /// Whether the sentence being applied carried a time (set by `timestamp`, cleared by `sentenceDone`).
    private var timedSentence = false
    /// The device name put in every fix and view.
    let device: String?
    /// Whether the first cycle is reported after each sentence that sets a position or mode, as the gpsd daemon
    /// reports it until a cycle has ended (`gpsdecode` reports it once, complete).
    let reportsFirstCycleEachSentence: Bool
    /// Whether the sentence being applied set a position or mode (cleared by `sentenceDone`).
    var setPositionOrMode = false
    /// Whether the sentence being applied started the cycle (set by `timestamp`, cleared by `sentenceDone`): gpsd
    /// clears its merged fix only after parsing such a sentence, so its mode rules still read the previous cycle.
    var startedCycle = false
    /// Whether the sentence being applied reports the cycle again (set by `timestamp`, cleared by `endIfEnder`).
    private var endsAgain = false
    /// gpsd's `lastfix` and `oldfix` as far as its mode rules read them: the merged fix after the last sentence
    /// that left it with a time, and the one before the time last moved.
    var timedFixes = TimedFixes()

    init(device: String? = nil, reportsFirstCycleEachSentence: Bool = false) {
        self.device = device
        sky = SkyAssembler(device: device)
        self.reportsFirstCycleEachSentence = reportsFirstCycleEachSentence
    }

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
            startedCycle = true
        } else {
            // The cycle goes on after it was reported at an ender, with another type that ended cycles before:
            // gpsd, which keeps every type that ever ended a cycle as an ender, reports the cycle again at this
            // sentence, and so does this assembler.
            if reported && !continuation && detector.ends(type) {
                reported = false
                endsAgain = true
            }
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
        // The leap seconds the receiver stated (`$PGRMF`) stay for every fix, as in gpsd's context.
        let leapSeconds = fix.leapSeconds
        fix.clearMeasurements()
        fix.leapSeconds = leapSeconds
        // The device is put in at the first cycle (a fix reported before any has none) and stays.
        if fix.device == nil { fix.device = device }
        hasContent = false
        reported = false
    }

    /// Reports the cycle in progress if it was not reported yet (in continuation mode: it had no sentence without a
    /// time).
    private mutating func reportUnreported(_ reports: inout some NMEAReportSink) {
        guard hasContent && !reported else { return }
        report(&reports)
    }

    /// Reports the cycle when `type` is its learned ender or reports it again (never in continuation mode).
    mutating func endIfEnder(_ type: NMEASentenceType, reports: inout some NMEAReportSink) {
        if fix.speed == nil && fix.mode >= .twoD { deriveSpeed() }
        applyErrorModel()
        if (detector.ends(type) || endsAgain) && !reported && hasContent && !continuation {
            report(&reports)
        }
        endsAgain = false
    }

    /// A GGA without a time whose fix quality is 0 (`$GPGGA,,,,,,0,,,,M,,M,,`, as Quectel and Hemisphere receivers
    /// send before their first fix): gpsd 3.22's `processGGA` forces a report of it, past its cycle detector, and
    /// the daemon sends a TPV of mode 1 with the cycle's time so far (a ZDA's, or none). `gpsdecode` prints none, so
    /// only a decoder that reports as the daemon does (`reportsFirstCycleEachSentence`) reports it; returns whether
    /// it did. The cycle is not otherwise changed (gpsd also clears its date, which would leave the next timed
    /// sentence without one; this decoder keeps it).
    mutating func reportNoFixWithoutTime(_ reports: inout some NMEAReportSink) -> Bool {
        guard reportsFirstCycleEachSentence else { return false }
        if fix.device == nil { fix.device = device }
        fix.mode = .noFix
        report(&reports)
        return true
    }

    /// Enters gpsd's continuation mode for good: the stream sent a DBT (depth) sentence.
    mutating func cycleContinuer() {
        continuation = true
    }

    /// Called after every sentence that passed its checksum. As gpsd after every sentence: a cycle without a
    /// speed so far gets one from the distance to the previous cycle's position. In continuation mode a sentence
    /// without a time is where gpsd reports, so the cycle is reported when it changed since its last report. Until
    /// a cycle has ended,
    /// the gpsd daemon reports after every sentence that set a position or mode; so does this assembler when
    /// `reportsFirstCycleEachSentence`.
    @inline(__always)
    mutating func sentenceDone(_ reports: inout some NMEAReportSink) {
        if fix.speed == nil && fix.mode >= .twoD { deriveSpeed() }
        applyErrorModel()
        if let time = fix.time { timedFixes.record(time: time, mode: fix.mode, altitude: fix.altitudeMSL != nil) }
        if continuation && !timedSentence && hasContent && (!reported || fix != lastReported) {
            report(&reports)
            lastReported = fix
        }
        timedSentence = false
        startedCycle = false
        sentenceErrors = []
        if setPositionOrMode {
            setPositionOrMode = false
            if reportsFirstCycleEachSentence && !detector.hasEnded && !continuation { report(&reports) }
        }
    }

    /// gpsd's speed of last resort: distance from the previous cycle's position over the time between them.
    private mutating func deriveSpeed() {
        guard let prev = lastCycle, prev.mode >= .twoD, let t0 = prev.time, let t1 = fix.time, t1 > t0,
            let lat0 = prev.latitude, let lon0 = prev.longitude, let lat1 = fix.latitude, let lon1 = fix.longitude,
            let metres = distance(from: (lat0, lon0), to: (lat1, lon1))
        else { return }
        let speed = metres * 1_000 / Double(t1.millisecondsSince1970 - t0.millisecondsSince1970)
        if speed <= 9_999.9 { fix.speed = speed }
    }

    /// Reports the cycle's state as gpsd would.
    private mutating func report(_ reports: inout some NMEAReportSink) {
        reported = true
        fixesReported += 1
        Self.report(&fix, previous: lastCycle, &reports)
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
        finishSky(&reports)
    }

    /// Hands out a completed sky view that was not reported yet.
    mutating func finishSky(_ reports: inout some NMEAReportSink) {
        if sky.finish(time: fix.time) {
            skyViewsReported += 1
            reports.sky(sky.view)
        }
    }

    /// Hands out a completed sky view before a sentence other than GSV/GSA is applied.
    @inline(__always)
    mutating func otherSentence(_ reports: inout some NMEAReportSink) {
        if sky.otherSentence(time: fix.time) {
            skyViewsReported += 1
            reports.sky(sky.view)
        }
    }
}
