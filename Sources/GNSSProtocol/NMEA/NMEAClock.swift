/// Turns NMEA times of day and dates into full UTC instants.
///
/// GGA, GLL and GNS carry only a time of day; RMC adds a two-digit-year date and ZDA a four-digit-year date. The
/// clock keeps the last date and moves it to the next day when a time's hour is below the last time's, as gpsd
/// 3.22's `merge_hhmmss` does: at midnight, and also where time goes back across an hour (a log made of two
/// recordings), until the next RMC or ZDA sets the date again.
///
/// Century rule for RMC's two-digit year: once a ZDA has given a four-digit year, its century is used (moving to
/// the next century when the year goes from 99 to 00); before any ZDA, years 80–99 are 1980–1999 and 00–79 are
/// 2000–2079 (GPS began in 1980), as in gpsd before any ZDA.
///
/// Week rollover: under ``WeekRolloverRule/gpsd`` an instant before 2017-01-01 moves 1024 weeks forward and the
/// clock keeps the moved date (gpsd writes it back into its session), so the next time of day on that date that is
/// still before 2017 moves again; a new date from RMC or ZDA replaces it.
struct NMEAClock: Sendable {
    /// 2017-01-01T00:00:00Z in milliseconds since 1970: gpsd moves an NMEA time before it (1483228800 s).
    static let rolloverFloor: Int64 = 1_483_228_800_000
    /// 1024 GPS weeks in days (619,315,200 s).
    static let rolloverDays = 7_168

    /// What to do with a date that may be 1024 weeks late.
    var weekRollover = WeekRolloverRule.gpsd
    /// How often a time was moved 1024 weeks forward.
    private(set) var rolloverCorrections = 0
    /// Days since 1970-01-01 of the current date, once a date has been seen.
    private(set) var day: Int?
    private var lastTimeOfDay: Int?
    private var zdaCentury: Int?
    private var lastYear: Int?
    /// The last civil date set, packed as `(year * 16 + month) * 32 + day`, or -1 before any: receivers repeat
    /// the same date in every RMC and ZDA, so it is converted to a day number only when it changes.
    private var dateKey = -1
    /// The day number of `dateKey`; apart from `day`, which moves on at midnight while the date sent may not.
    private var dateDays = 0

    /// The instant for `timeOfDay` (ms since midnight) on the current date, moving the date to the next day when
    /// the hour went down; `nil` until a date is known.
    mutating func resolve(timeOfDay: Int) -> GNSSTime? {
        if let last = lastTimeOfDay, timeOfDay / 3_600_000 < last / 3_600_000, day != nil {
            day! += 1
        }
        lastTimeOfDay = timeOfDay
        guard var day else { return nil }
        var instant = Int64(day) * 86_400_000 + Int64(timeOfDay)
        if instant < Self.rolloverFloor && weekRollover == .gpsd {
            day += Self.rolloverDays
            instant += Int64(Self.rolloverDays) * 86_400_000
            self.day = day
            rolloverCorrections += 1
        }
        return GNSSTime(millisecondsSince1970: instant)
    }

    /// The instant for `timeOfDay` on the current date, as ``resolve(timeOfDay:)`` would give it without rolling
    /// anything over; `nil` until a date is known.
    func instant(timeOfDay: Int) -> GNSSTime? {
        guard let day else { return nil }
        return GNSSTime(millisecondsSince1970: Int64(day) * 86_400_000 + Int64(timeOfDay))
    }

    /// Sets the date from RMC's `ddmmyy` digits; returns `false` when they are not a date.
    mutating func setDate(day d: Int, month: Int, twoDigitYear yy: Int, timeOfDay: Int) -> Bool {
        guard (1...12).contains(month), (1...31).contains(d), (0...99).contains(yy) else {
            return false
        }
        var year: Int
        if var century = zdaCentury {
            if let last = lastYear, last % 100 == 99, yy == 0 {
                century += 100
                zdaCentury = century
            }
            year = century + yy
        } else {
            year = yy >= 80 ? 1900 + yy : 2000 + yy
        }
        set(year: year, month: month, day: d, timeOfDay: timeOfDay)
        return true
    }

    /// Sets the date from ZDA's four-digit year; returns `false` when the fields are not a date.
    mutating func setDate(year: Int, month: Int, day d: Int, timeOfDay: Int) -> Bool {
        guard (1...12).contains(month), (1...31).contains(d), (1980...2200).contains(year) else {
            return false
        }
        zdaCentury = year - year % 100
        set(year: year, month: month, day: d, timeOfDay: timeOfDay)
        return true
    }

    private mutating func set(year: Int, month: Int, day d: Int, timeOfDay: Int) {
        // Month 1...12 and day 1...31 fit in 4 and 5 bits, so distinct dates have distinct keys.
        let key = (year &* 16 &+ month) &* 32 &+ d
        if key != dateKey {
            dateDays = GNSSTime.daysFromCivil(year: year, month: month, day: d)
            dateKey = key
        }
        day = dateDays
        lastYear = year
        lastTimeOfDay = timeOfDay
    }
}
