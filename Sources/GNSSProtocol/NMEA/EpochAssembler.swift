#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
struct EpochAssembler: Sendable {
    /// Knots to metres per second, gpsd's `KNOTS_TO_MPS`.
    static let knotsToMetresPerSecond = 1852.0 / 3600.0

    private(set) var fix = Fix()
    private var clock = NMEAClock()
    private var detector = CycleDetector()
    private(set) var sky = SkyAssembler()
    /// Whether the cycle in progress holds anything worth reporting, and whether it was reported.
    private var hasContent = false
    private var reported = false
    /// The previous cycle as it stood when the next one began, reported or not (gpsd's `oldfix`): the reference
    /// for derived speed and climb and for not downgrading a 3D fix to 2D on RMC/GLL.
    private var lastCycle: Fix?
    /// Whether a DBT has been seen: gpsd's continuation mode (see the type's documentation).
    private(set) var continuation = false
    /// In continuation mode, whether `fix` is the cycle as of its last sentence without a time (what gpsd last
    /// reported); once a timestamped sentence of the same cycle changes it, that state is kept in `lastReportable`.
    private var fixIsReportable = false
    private var lastReportable: Fix?
    /// Whether the sentence being applied carried a time (set by `timestamp`, cleared by `sentenceDone`).
    private var timedSentence = false
    /// The device name put in every fix and view.
    var device: String?

    init(device: String? = nil) { self.device = device }

    /// The time of the cycle in progress, for the sky view.
    var time: GNSSTime? { fix.time }

    // MARK: Cycle handling

    /// Starts or continues a cycle for a timestamped sentence; reports the finished cycle when one ends.
    private mutating func timestamp(
        _ type: NMEASentenceType, timeOfDay: Int, emit: (NMEAEvent) -> Void
    ) {
        timedSentence = true
        if detector.timestamp(type, timeOfDay: timeOfDay) {
            reportUnreported(emit)
            lastCycle = fix
            fix = Fix(device: device)
            hasContent = false
            reported = false
            fixIsReportable = false
            lastReportable = nil
        } else if fixIsReportable {
            // This sentence is about to change the state gpsd last reported: keep that state first.
            lastReportable = fix
            fixIsReportable = false
        }
        if let time = clock.resolve(timeOfDay: timeOfDay) { fix.time = time }
    }

    /// Reports the cycle in progress if it was not reported yet: in continuation mode as of its last sentence
    /// without a time (all of it when it had none).
    private mutating func reportUnreported(_ emit: (NMEAEvent) -> Void) {
        guard hasContent && !reported else { return }
        report(fixIsReportable ? fix : lastReportable ?? fix, emit)
    }

    /// Reports the cycle when `type` is its learned ender (never in continuation mode).
    private mutating func endIfEnder(_ type: NMEASentenceType, emit: (NMEAEvent) -> Void) {
        if fix.speed == nil && fix.mode >= .twoD { deriveSpeed() }
        if detector.ends(type) && !reported && hasContent && !continuation { report(fix, emit) }
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
        if continuation && !timedSentence && hasContent { fixIsReportable = true }
        timedSentence = false
    }

    /// gpsd's speed of last resort: distance from the previous cycle's position over the time between them.
    private mutating func deriveSpeed() {
        guard let prev = lastCycle, prev.mode >= .twoD, let t0 = prev.time, let t1 = fix.time, t1 > t0,
            let lat0 = prev.latitude, let lon0 = prev.longitude, let lat1 = fix.latitude, let lon1 = fix.longitude,
            let metres = Self.distance(lat0, lon0, lat1, lon1)
        else { return }
        let speed = metres * 1_000 / Double(t1.millisecondsSince1970 - t0.millisecondsSince1970)
        if speed <= 9_999.9 { fix.speed = speed }
    }

    private mutating func report(_ state: Fix, _ emit: (NMEAEvent) -> Void) {
        var out = state
        // As gpsd reports it: no position, speed or track without a fix, no altitude without a 3D fix.
        if out.mode < .twoD {
            out.latitude = nil
            out.longitude = nil
            out.speed = nil
            out.track = nil
            out.magneticTrack = nil
            out.status = nil
        }
        if out.mode < .threeD {
            out.altitudeHAE = nil
            out.altitudeMSL = nil
            out.climb = nil
        }
        if out.mode == .threeD, let prev = lastCycle, prev.mode == .threeD, let t0 = prev.time,
            let t1 = out.time,
            let a0 = prev.altitudeMSL, let a1 = out.altitudeMSL, t1 > t0
        {
            out.climb = (a1 - a0) * 1_000 / Double(t1.millisecondsSince1970 - t0.millisecondsSince1970)
        }
        reported = true
        emit(.fix(out))
    }

    /// The distance in metres between two positions in degrees on the WGS84 ellipsoid, as gpsd computes it
    /// (Vincenty's inverse formula, iterated to 1e-12 rad, at most 100 times); `nil` when it does not converge
    /// (nearly antipodal points), where gpsd reports no speed.
    static func distance(_ lat0: Double, _ lon0: Double, _ lat1: Double, _ lon1: Double) -> Double? {
        let a = 6_378_137.0
        let f = 1 / 298.257_223_563
        let b = a * (1 - f)
        let r = Double.pi / 180
        let l = (lon1 - lon0) * r
        let u1 = atan((1 - f) * tan(lat0 * r))
        let u2 = atan((1 - f) * tan(lat1 * r))
        let sinU1 = sin(u1)
        let cosU1 = cos(u1)
        let sinU2 = sin(u2)
        let cosU2 = cos(u2)
        var lambda = l
        var sinSigma = 0.0
        var cosSigma = 0.0
        var sigma = 0.0
        var cosSqAlpha = 0.0
        var cos2SigmaM = 0.0
        var iterations = 100
        while true {
            let sinLambda = sin(lambda)
            let cosLambda = cos(lambda)
            let p = cosU2 * sinLambda
            let q = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (p * p + q * q).squareRoot()
            if sinSigma == 0 { return 0 }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSqAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSqAlpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha
            let c = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
            let previousLambda = lambda
            lambda =
                l + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (2 * cos2SigmaM * cos2SigmaM - 1)))
            iterations -= 1
            if abs(lambda - previousLambda) <= 1e-12 { break }
            if iterations == 0 { return nil }
        }
        let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
        let bigA = 1 + uSq / 16_384 * (4_096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let bigB = uSq / 1_024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
        let deltaSigma =
            bigB * sinSigma
            * (cos2SigmaM + bigB / 4
                * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - bigB / 6 * cos2SigmaM
                    * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * bigA * (sigma - deltaSigma)
    }

    /// Ends the input: reports a cycle that was not reported yet.
    mutating func finish(_ emit: (NMEAEvent) -> Void) {
        reportUnreported(emit)
        if let view = sky.finish(time: fix.time) { emit(.sky(view)) }
    }

    /// Hands out a completed sky view before a sentence other than GSV/GSA is applied.
    @inline(__always)
    mutating func otherSentence(_ emit: (NMEAEvent) -> Void) {
        if var view = sky.otherSentence(time: fix.time) {
            view.device = device
            emit(.sky(view))
        }
    }

    // MARK: Mode

    /// Sets the mode a position sentence implies, never downgrading 3D to 2D while altitude is being reported.
    private mutating func setMode(_ mode: FixMode) {
        if mode == .twoD,
            fix.mode == .threeD || (lastCycle?.mode == .threeD && lastCycle?.altitudeMSL != nil)
        {
            fix.mode = .threeD
        } else {
            fix.mode = mode
        }
        hasContent = true
    }

    private mutating func setPosition(latitude: Double, longitude: Double) {
        fix.latitude = latitude
        fix.longitude = longitude
        hasContent = true
    }

    /// Latitude and longitude from four fields (`DDMM.mm,N,DDDMM.mm,E`) starting at `k`.
    private static func position(_ f: NMEAFields, _ k: Int) -> (Double, Double)? {
        guard var lat = f.degreesMinutes(k), var lon = f.degreesMinutes(k + 2) else { return nil }
        let ns = f.first(k + 1)
        let ew = f.first(k + 3)
        guard ns == 0x4E || ns == 0x53, ew == 0x45 || ew == 0x57 else { return nil }
        if ns == 0x53 { lat = -lat }
        if ew == 0x57 { lon = -lon }
        guard lat >= -90, lat <= 90, lon >= -180, lon <= 180 else { return nil }
        return (lat, lon)
    }

    /// gpsd's TPV `status` for a GGA quality indicator, when at least 2.
    private static func status(ggaQuality q: Int) -> Int? {
        switch q {
        case 2: 2
        case 3: 9
        case 4: 3
        case 5: 4
        case 6: 5
        case 7: 7
        case 8: 8
        default: nil
        }
    }

    /// gpsd's TPV `status` for an FAA mode indicator, when at least 2.
    private static func status(faa c: UInt8) -> Int? {
        switch c {
        case 0x44, 0x50: 2  // D, P
        case 0x52: 3  // R
        case 0x46: 4  // F
        case 0x45: 5  // E
        case 0x53, 0x4D: 8  // S, M
        default: nil
        }
    }

    // MARK: Sentences

    /// GGA: time, position, quality, satellites used, HDOP, altitude, geoid separation.
    mutating func applyGGA(_ f: NMEAFields, emit: (NMEAEvent) -> Void) -> Bool {
        if let tod = f.timeOfDay(1) { timestamp(.gga, timeOfDay: tod, emit: emit) }
        let quality = f.isEmpty(6) ? -1 : f.leadingInt(6)
        let satellites = f.leadingInt(7)
        // As gpsd: the position and altitude are kept whatever the quality, but quality 0 or fewer than 3
        // satellites used (or none stated) is no fix, and 3D needs an altitude and 4 satellites.
        if let (lat, lon) = Self.position(f, 2) {
            setPosition(latitude: lat, longitude: lon)
            var mode = FixMode.twoD
            if let alt = f.double(9) {
                fix.altitudeMSL = alt
                if satellites >= 4 { mode = .threeD }
            }
            if let sep = f.double(11) { fix.geoidSeparation = sep }
            if let msl = fix.altitudeMSL, let sep = fix.geoidSeparation { fix.altitudeHAE = msl + sep }
            if quality == 0 || satellites < 3 { mode = .noFix }
            setMode(mode)
            if let s = Self.status(ggaQuality: quality) { fix.status = s }
        } else {
            setMode(.noFix)
        }
        if let hdop = f.double(8), hdop < 99 { sky.setHDOP(hdop) }
        endIfEnder(.gga, emit: emit)
        return true
    }

    /// RMC: time, date, validity, position, speed, track, magnetic variation, FAA mode.
    mutating func applyRMC(_ f: NMEAFields, emit: (NMEAEvent) -> Void) -> Bool {
        if let tod = f.timeOfDay(1) {
            if f.length(9) == 6, let dmy = f.int(9) {
                _ = clock.setDate(
                    day: dmy / 10_000, month: dmy / 100 % 100, twoDigitYear: dmy % 100, timeOfDay: tod)
            }
            timestamp(.rmc, timeOfDay: tod, emit: emit)
        }
        let valid = f.first(2) == 0x41 || f.first(2) == 0x44
        let faa = f.first(12)
        if valid, faa != 0x4E, let (lat, lon) = Self.position(f, 3) {
            setPosition(latitude: lat, longitude: lon)
            if let knots = f.double(7) { fix.speed = knots * Self.knotsToMetresPerSecond }
            if let track = f.double(8) { fix.track = track }
            if let variation = f.double(10), variation > 0.09 || variation < -0.09 {
                switch f.first(11) {
                case 0x45: fix.magneticVariation = variation
                case 0x57: fix.magneticVariation = -variation
                default: break
                }
            }
            setMode(fix.altitudeMSL != nil ? .threeD : .twoD)
            if let s = Self.status(faa: faa) ?? (f.first(2) == 0x44 ? 2 : nil) { fix.status = s }
        } else {
            setMode(.noFix)
        }
        endIfEnder(.rmc, emit: emit)
        return true
    }

    /// GLL: position, time, validity, FAA mode.
    mutating func applyGLL(_ f: NMEAFields, emit: (NMEAEvent) -> Void) -> Bool {
        if let tod = f.timeOfDay(5) { timestamp(.gll, timeOfDay: tod, emit: emit) }
        if f.first(6) == 0x41, f.first(7) != 0x4E, let (lat, lon) = Self.position(f, 1) {
            setPosition(latitude: lat, longitude: lon)
            setMode(fix.altitudeMSL != nil ? .threeD : .twoD)
            if let s = Self.status(faa: f.first(7)) { fix.status = s }
        } else {
            setMode(.noFix)
        }
        endIfEnder(.gll, emit: emit)
        return true
    }

    /// GNS: time, position, per-constellation mode, satellites used, HDOP, altitude, geoid separation.
    mutating func applyGNS(_ f: NMEAFields, emit: (NMEAEvent) -> Void) -> Bool {
        if let tod = f.timeOfDay(1) { timestamp(.gns, timeOfDay: tod, emit: emit) }
        let mode = f.first(6)
        let navigation = f.first(13)
        if mode == 0 || mode == 0x4E {
            setMode(.noFix)
        } else if navigation == 0x55 || navigation == 0x56 {
            // Unsafe or not valid for navigation: nothing to use.
        } else if let (lat, lon) = Self.position(f, 2) {
            setPosition(latitude: lat, longitude: lon)
            var newMode = FixMode.twoD
            if let alt = f.double(9) {
                fix.altitudeMSL = alt
                if f.leadingInt(7) > 3 { newMode = .threeD }
                if let sep = f.double(10) {
                    fix.geoidSeparation = sep
                    fix.altitudeHAE = alt + sep
                }
            }
            setMode(newMode)
            if let s = Self.status(faa: mode) { fix.status = s }
        } else {
            setMode(.noFix)
        }
        if let hdop = f.double(8), hdop < 99 { sky.setHDOP(hdop) }
        endIfEnder(.gns, emit: emit)
        return true
    }

    /// GSA: fix mode, satellites used, DOPs.
    mutating func applyGSA(_ f: NMEAFields, system: NMEASatelliteNumbering.System) -> Bool {
        switch f.first(2) {
        case 0x31: setMode(.noFix)
        case 0x32: setMode(.twoD)
        case 0x33: setMode(.threeD)
        default: break
        }
        sky.applyGSA(f, system: system)
        return true
    }

    /// GSV: satellites in view.
    mutating func applyGSV(_ f: NMEAFields, system: NMEASatelliteNumbering.System) -> Bool {
        sky.applyGSV(f, system: system)
        return true
    }

    /// VTG, old (`track,mag,knots,kmh`) or new (`track,T,mag,M,knots,N,kmh,K[,mode]`) form.
    mutating func applyVTG(_ f: NMEAFields) -> Bool {
        let newForm = f.first(2) == 0x54
        let track = f.double(1)
        let magnetic = f.double(newForm ? 3 : 2)
        let knots = f.double(newForm ? 5 : 3)
        if newForm, f.first(9) == 0x4E || f.first(9) == 0x45 { return true }
        guard let track, let knots else { return true }
        fix.track = track
        fix.speed = knots * Self.knotsToMetresPerSecond
        if let magnetic { fix.magneticTrack = magnetic }
        hasContent = true
        return true
    }

    /// ZDA: time and four-digit-year date.
    mutating func applyZDA(_ f: NMEAFields, emit: (NMEAEvent) -> Void) -> Bool {
        guard let tod = f.timeOfDay(1), let day = f.int(2), let month = f.int(3), let year = f.int(4),
            clock.setDate(year: year, month: month, day: day, timeOfDay: tod)
        else { return false }
        // As in gpsd 3.22, ZDA dates the cycle but takes no part in finding its end: receivers send it at
        // irregular points of the cycle (once per second in a 2 Hz stream, for one).
        if detector.cycleTime == nil || detector.cycleTime == tod,
            let time = clock.resolve(timeOfDay: tod)
        {
            fix.time = time
        }
        return true
    }
}
