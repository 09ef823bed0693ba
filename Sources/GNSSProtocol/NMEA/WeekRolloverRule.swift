/// What the NMEA decoder does with a date that may be 1024 weeks late.
///
/// GPS broadcasts its week number in 10 bits, which roll over every 1024 weeks (19.6 years: 1999-08-22, then
/// 2019-04-07). A receiver whose firmware assumes the wrong rollover period reports dates 1024 weeks in the past: a
/// receiver with that bug, in 2018, reports a day of 1999. A date in a sentence cannot show whether it is such a
/// date or a true old one, so the rule is chosen by where the sentences come from.
public enum WeekRolloverRule: Sendable, Hashable {
    /// gpsd 3.22's rule (`gpsd_utc_resolve()` in `gpsd/timebase.c`): an NMEA time before 2017-01-01T00:00:00Z
    /// (1483228800, the date of leap second 18, gpsd's `BUILD_LEAPSECONDS`) is moved 1024 weeks (619,315,200 s)
    /// forward. The decoder keeps the moved date, as gpsd writes it back into its session, so a later sentence
    /// of the same date that is still before 2017 is moved again: an RMC date of 230394 gives 2013-11-06, and the
    /// GGA after it 2033-06-22. A receiver with the bug that reports 1999 comes out in 2018, as from gpsd.
    ///
    /// For a live receiver: what gpsd and its clients report for the same sentences.
    case gpsd
    /// Dates as the receiver sent them (two-digit years read as ``NMEADecoder`` documents).
    ///
    /// For a recording: a log made before 2017 keeps its dates, where gpsd's rule moves them 1024 weeks ahead.
    case asSent
}
