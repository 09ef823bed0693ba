extension CycleAssembler {
    /// Latitude and longitude from four fields (`DDMM.mm,N,DDDMM.mm,E`) starting at `start`.
    static func position(_ fields: NMEAFields, _ start: Int) -> (Double, Double)? {
        guard var lat = fields.degreesMinutes(start), var lon = fields.degreesMinutes(start + 2) else { return nil }
        let ns = fields.first(start + 1)
        let ew = fields.first(start + 3)
        guard ns == 0x4E || ns == 0x53, ew == 0x45 || ew == 0x57 else { return nil }
        if ns == 0x53 { lat = -lat }
        if ew == 0x57 { lon = -lon }
        guard lat >= -90, lat <= 90, lon >= -180, lon <= 180 else { return nil }
        return (lat, lon)
    }

    /// gpsd's TPV `status` for a GGA quality indicator, when at least 2.
    private static func status(ggaQuality quality: Int) -> Int? {
        switch quality {
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

    /// gpsd's TPV `status` for an FAA mode indicator (gpsd 3.22's `faa_mode`), when at least 2: a simulator (S) is no
    /// fix there, and a manual input (M) a plain fix.
    static func status(faa indicator: UInt8) -> Int? {
        switch indicator {
        case 0x44, 0x50: 2  // D, P
        case 0x52: 3  // R
        case 0x46: 4  // F
        case 0x45: 5  // E
        default: nil
        }
    }

    /// Raises the cycle's status to `status`, as gpsd merges each sentence's status into the cycle's fix: upward
    /// only (`gps_merge_fix`), so an RTK GGA (quality 4, status 3) is not lowered by the RMC after it that says D.
    mutating func raiseStatus(to status: Int?) {
        guard let status, status > (fix.status ?? 0) else { return }
        fix.status = status
    }

    /// The DGPS age and station of a GGA or GNS (fields `age` and `age + 1`), when both are there and not both
    /// zero, as gpsd takes them.
    private mutating func setDGPS(_ fields: NMEAFields, age index: Int) {
        guard !fields.isEmpty(index), !fields.isEmpty(index + 1) else { return }
        let age = fields.double(index) ?? 0
        let station = fields.leadingInt(index + 1)
        if age > 0.09 || station > 0 {
            fix.dgpsAge = age
            fix.dgpsStation = station
        }
    }

    // MARK: Sentences

    /// GGA: time, position, quality, satellites used, HDOP, altitude, geoid separation.
    mutating func applyGGA(_ fields: NMEAFields, reports: inout some NMEAReportSink) -> Bool {
        if let timeOfDay = fields.time { timestamp(.gga, timeOfDay: timeOfDay, reports: &reports) }
        let quality = fields.isEmpty(6) ? -1 : fields.leadingInt(6)
        let satellites = fields.leadingInt(7)
        // As gpsd: the position and altitude are kept whatever the quality, but quality 0 or fewer than 3
        // satellites used (or none stated) is no fix, and 3D needs an altitude and 4 satellites.
        if let (lat, lon) = Self.position(fields, 2) {
            setPosition(latitude: lat, longitude: lon)
            var mode = FixMode.twoD
            if let alt = fields.double(9) {
                fix.altitudeMSL = alt
                if satellites >= 4 { mode = .threeD }
            }
            if let sep = fields.double(11) { fix.geoidSeparation = sep }
            if let msl = fix.altitudeMSL, let sep = fix.geoidSeparation { fix.altitudeHAE = msl + sep }
            if quality == 0 || satellites < 3 { mode = .noFix }
            setMode(mode)
            raiseStatus(to: Self.status(ggaQuality: quality))
        } else {
            setMode(.noFix)
        }
        if let hdop = fields.double(8), hdop < 99 { sky.setHDOP(hdop) }
        setDGPS(fields, age: 13)
        endIfEnder(.gga, reports: &reports)
        return true
    }

    /// RMC: time, date, validity, position, speed, track, magnetic variation, FAA mode.
    mutating func applyRMC(_ fields: NMEAFields, reports: inout some NMEAReportSink) -> Bool {
        // As gpsd 3.22: an RMC that is not valid (status V) brings no time or date and takes no part in finding
        // the cycle's end.
        if fields.first(2) == 0x41 || fields.first(2) == 0x44, let timeOfDay = fields.time {
            if fields.length(9) == 6, let dmy = fields.int(9) {
                _ = clock.setDate(
                    day: dmy / 10_000, month: dmy / 100 % 100, twoDigitYear: dmy % 100, timeOfDay: timeOfDay)
            }
            timestamp(.rmc, timeOfDay: timeOfDay, reports: &reports)
        }
        let valid = fields.first(2) == 0x41 || fields.first(2) == 0x44
        let faa = fields.first(12)
        if valid, faa != 0x4E, let (lat, lon) = Self.position(fields, 3) {
            setPosition(latitude: lat, longitude: lon)
            if let knots = fields.double(7) { fix.speed = knots * Self.knotsToMetresPerSecond }
            if let track = fields.course(8) { fix.track = track }
            if let variation = fields.double(10), variation > 0.09 || variation < -0.09 {
                switch fields.first(11) {
                case 0x45: fix.magneticVariation = variation
                case 0x57: fix.magneticVariation = -variation
                default: break
                }
            }
            setMode(rmcMode)
            // gpsd takes the FAA mode when the sentence has its field (NMEA 2.3), else D (differential) from the
            // validity.
            raiseStatus(to: fields.count >= 12 ? Self.status(faa: faa) : (fields.first(2) == 0x44 ? 2 : nil))
        } else {
            setMode(.noFix)
        }
        endIfEnder(.rmc, reports: &reports)
        return true
    }

    /// GLL: position, time, validity, FAA mode.
    mutating func applyGLL(_ fields: NMEAFields, reports: inout some NMEAReportSink) -> Bool {
        if let timeOfDay = fields.time { timestamp(.gll, timeOfDay: timeOfDay, reports: &reports) }
        if fields.first(6) == 0x41, fields.first(7) != 0x4E, let (lat, lon) = Self.position(fields, 1) {
            setPosition(latitude: lat, longitude: lon)
            setMode(gllMode)
            raiseStatus(to: Self.status(faa: fields.first(7)))
        } else {
            setMode(.noFix)
        }
        endIfEnder(.gll, reports: &reports)
        return true
    }

    /// GNS: time, position, per-constellation mode, satellites used, HDOP, altitude, geoid separation.
    mutating func applyGNS(_ fields: NMEAFields, reports: inout some NMEAReportSink) -> Bool {
        if let timeOfDay = fields.time { timestamp(.gns, timeOfDay: timeOfDay, reports: &reports) }
        let mode = fields.first(6)
        let navigation = fields.first(13)
        if mode == 0 || mode == 0x4E {
            setMode(.noFix)
        } else if navigation == 0x55 || navigation == 0x56 {
            // Unsafe or not valid for navigation: nothing to use.
        } else if let (lat, lon) = Self.position(fields, 2) {
            setPosition(latitude: lat, longitude: lon)
            var newMode = FixMode.twoD
            if let alt = fields.double(9) {
                fix.altitudeMSL = alt
                if fields.leadingInt(7) > 3 { newMode = .threeD }
                if let sep = fields.double(10) {
                    fix.geoidSeparation = sep
                    fix.altitudeHAE = alt + sep
                }
            }
            setMode(newMode)
            raiseStatus(to: Self.status(faa: mode))
        } else {
            setMode(.noFix)
        }
        if let hdop = fields.double(8), hdop < 99 { sky.setHDOP(hdop) }
        setDGPS(fields, age: 11)
        endIfEnder(.gns, reports: &reports)
        return true
    }

    /// GSA of talker `a b`: fix mode (when gpsd takes it, see ``SkyAssembler/applyGSA(_:talker:_:)``), satellites
    /// used, DOPs.
    mutating func applyGSA(_ fields: NMEAFields, talker a: UInt8, _ b: UInt8) -> Bool {
        guard sky.applyGSA(fields, talker: a, b) else { return true }
        switch fields.first(2) {
        case 0x31: setMode(.noFix)
        case 0x32: setMode(.twoD)
        case 0x33: setMode(.threeD)
        default: break
        }
        return true
    }

    /// GSV of talker `a b`: satellites in view. A completed view not reported yet goes out before a GSV that
    /// starts the next one afresh (gpsd sent it when it completed).
    mutating func applyGSV(
        _ fields: NMEAFields, talker a: UInt8, _ b: UInt8, reports: inout some NMEAReportSink
    ) -> Bool {
        if sky.startsAfresh(fields, talker: b) { finishSky(&reports) }
        sky.applyGSV(fields, talker: a, b)
        return true
    }

    /// VTG as gpsd 3.22 reads it: true track (field 1), magnetic track (field 3) and knots (field 5), ignored
    /// without a track or knots (so the old four-field form, `track,mag,knots,kmh`, gives nothing, as in gpsd) or
    /// with mode N or E.
    mutating func applyVTG(_ fields: NMEAFields) -> Bool {
        guard !fields.isEmpty(1), !fields.isEmpty(5) else { return true }
        if fields.first(9) == 0x4E || fields.first(9) == 0x45 { return true }
        guard let track = fields.course(1), let knots = fields.double(5) else { return true }
        fix.track = track
        fix.speed = knots * Self.knotsToMetresPerSecond
        if !fields.isEmpty(3), let magnetic = fields.course(3) { fix.magneticTrack = magnetic }
        hasContent = true
        return true
    }

    /// ZDA: time and four-digit-year date.
    mutating func applyZDA(_ fields: NMEAFields, reports: inout some NMEAReportSink) -> Bool {
        guard let timeOfDay = fields.timeOfDay(1), let day = fields.int(2), let month = fields.int(3),
            let year = fields.int(4),
            clock.setDate(year: year, month: month, day: day, timeOfDay: timeOfDay)
        else { return false }
        // As in gpsd 3.22, ZDA dates the cycle but takes no part in finding its end: receivers send it at
        // irregular points of the cycle (once per second in a 2 Hz stream, for one).
        if detector.cycleTime == nil || detector.cycleTime == timeOfDay,
            let time = clock.resolve(timeOfDay: timeOfDay)
        {
            fix.time = time
        }
        return true
    }
}
