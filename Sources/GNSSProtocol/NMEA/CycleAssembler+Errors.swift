/// The sentences that carry error estimates, heading or depth, applied as gpsd 3.22's NMEA driver applies them
/// (`drivers/driver_nmea0183.c`). None of them starts or ends a cycle.
extension CycleAssembler {
    /// gpsd's `GPSD_CONFIDENCE / CEP50_SIGMA`: Garmin's 50% figures scaled to gpsd's 95%.
    private static let garminScale = 2.45 / 1.18

    /// GBS: one-sigma latitude, longitude and altitude errors, taken when the sentence's time of day is the
    /// cycle's (to the second, as gpsd compares it). Its time takes part in finding the cycle's end, as gpsd's
    /// `register_fractional_time` makes it.
    mutating func applyGBS(_ fields: NMEAFields, reports: inout some NMEAReportSink) -> Bool {
        guard let timeOfDay = fields.time else { return true }
        let sameSecond = detector.cycleTime.map { $0 / 1_000 == timeOfDay / 1_000 } ?? false
        if detector.timestamp(.gbs, timeOfDay: timeOfDay) { startCycle(&reports) }
        defer { endIfEnder(.gbs, reports: &reports) }
        guard sameSecond else { return true }
        fix.epy = fields.double(2) ?? 0
        fix.epx = fields.double(3) ?? 0
        fix.epv = fields.double(4) ?? 0
        sentenceErrors.insert(.horizontal)
        hasContent = true
        return true
    }

    /// GST: pseudorange noise statistics, reported at once, as gpsd reports each GST. Its time of day is dated with
    /// the stream's current date and takes no part in finding the cycle's end; the fix's estimates are not changed
    /// (gpsd 3.22 takes none from GST).
    mutating func applyGST(_ fields: NMEAFields, reports: inout some NMEAReportSink) -> Bool {
        var noise = PseudorangeNoise(gst: fields)
        noise.device = device
        if let timeOfDay = fields.timeOfDay(1) { noise.time = clock.instant(timeOfDay: timeOfDay) }
        reports.noise(noise)
        return true
    }

    /// HDT: the true heading, reported at once as gpsd's ATT when it is within 0...360 degrees. It changes nothing
    /// in the fix, as in gpsd 3.22.
    mutating func applyHDT(_ fields: NMEAFields, reports: inout some NMEAReportSink) -> Bool {
        guard var attitude = Attitude(hdt: fields) else { return true }
        attitude.device = device
        reports.attitude(attitude)
        return true
    }

    /// HDG: the heading is the magnetic track; a variation when its two fields are there, read as gpsd reads them.
    mutating func applyHDG(_ fields: NMEAFields) -> Bool {
        guard !fields.isEmpty(1), let heading = fields.double(1), heading >= 0, heading <= 360 else { return true }
        let deviation = fields.double(2) ?? 0
        guard deviation >= 0, deviation <= 360 else { return true }
        fix.magneticTrack = heading
        if !fields.isEmpty(3), !fields.isEmpty(4) {
            let variation = fields.double(3) ?? 0
            switch fields.first(4) {
            case 0x45: fix.magneticVariation = variation
            case 0x57: fix.magneticVariation = -variation
            default: break
            }
        }
        hasContent = true
        return true
    }

    /// DBT: depth below the transducer, in metres, else feet, else fathoms.
    mutating func applyDBT(_ fields: NMEAFields) {
        if !fields.isEmpty(3) {
            fix.depth = fields.double(3) ?? 0
        } else if !fields.isEmpty(1) {
            fix.depth = (fields.double(1) ?? 0) * 0.3048
        } else if !fields.isEmpty(5) {
            fix.depth = (fields.double(5) ?? 0) * 1.8288
        }
    }

    /// PSRFEPE (SiRF): a time, HDOP and the receiver's own horizontal, vertical, speed and heading errors, when
    /// valid.
    mutating func applyPSRFEPE(_ fields: NMEAFields, reports: inout some NMEAReportSink) {
        if let timeOfDay = fields.timeOfDay(1) { timestamp(.psrfepe, timeOfDay: timeOfDay, reports: &reports) }
        defer { endIfEnder(.psrfepe, reports: &reports) }
        guard fields.first(2) == 0x41 else { return }
        if !fields.isEmpty(3) { sky.setHDOP(fields.double(3) ?? 0) }
        if !fields.isEmpty(4) { fix.eph = fields.double(4) ?? 0 }
        if !fields.isEmpty(5) { fix.epv = fields.double(5) ?? 0 }
        if !fields.isEmpty(6) {
            fix.eps = fields.double(6) ?? 0
            sentenceErrors.insert(.speed)
        }
        if !fields.isEmpty(7) { fix.epd = fields.double(7) ?? 0 }
    }

    /// PGRME (Garmin): horizontal, vertical and spherical errors, taken as 50% figures and scaled to gpsd's 95%.
    mutating func applyPGRME(_ fields: NMEAFields) {
        guard fields.first(2) == 0x4D, fields.first(4) == 0x4D, fields.first(6) == 0x4D else { return }
        let horizontal = (fields.double(1) ?? 0) * (1 / 2.0.squareRoot()) * Self.garminScale
        fix.epx = horizontal
        fix.epy = horizontal
        fix.epv = (fields.double(3) ?? 0) * Self.garminScale
        fix.sep = (fields.double(5) ?? 0) * Self.garminScale
        sentenceErrors.insert(.horizontal)
    }
}

extension CycleAssembler {
    /// PSTI,030 (SkyTraq): time and date, position, altitude, east/north/up velocity and FAA mode, as gpsd reads
    /// it when it has its 16 fields.
    mutating func applyPSTI030(_ fields: NMEAFields, reports: inout some NMEAReportSink) {
        guard fields.count == 16 else { return }
        if fields.first(3) == 0x56 || fields.first(13) == 0x4E {
            setMode(.noFix)
            return
        }
        guard fields.first(3) == 0x41 else { return }
        if let timeOfDay = fields.timeOfDay(2), fields.length(12) == 6, let dmy = fields.int(12) {
            _ = clock.setDate(
                day: dmy / 10_000, month: dmy / 100 % 100, twoDigitYear: dmy % 100, timeOfDay: timeOfDay)
            timestamp(.psti030, timeOfDay: timeOfDay, reports: &reports)
        }
        if let (lat, lon) = Self.position(fields, 4) {
            setPosition(latitude: lat, longitude: lon)
            var mode = FixMode.twoD
            if !fields.isEmpty(8) {
                fix.altitudeMSL = fields.double(8) ?? 0
                mode = .threeD
            }
            setMode(mode)
        }
        fix.velocityEast = fields.double(9) ?? 0
        fix.velocityNorth = fields.double(10) ?? 0
        fix.velocityDown = -(fields.double(11) ?? 0)
        raiseStatus(to: Self.status(faa: fields.first(13)))
        hasContent = true
        endIfEnder(.psti030, reports: &reports)
    }
}

/// The error estimates the sentence being applied gave itself, which gpsd's error model then leaves alone.
struct SentenceErrors: OptionSet, Sendable {
    let rawValue: UInt8
    /// epx and epy.
    static let horizontal = SentenceErrors(rawValue: 1)
    /// eps.
    static let speed = SentenceErrors(rawValue: 2)
}
