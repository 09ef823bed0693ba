extension CycleAssembler {
    /// Garmin's `$PGRMF` (GPS week and time, UTC date and time, leap seconds, position, fix type, speed, course and
    /// DOPs): the leap seconds, as gpsd 3.22 takes them when field 5 starts with a digit (`atoi`), kept for every
    /// fix after it, as gpsd keeps them in its context and writes them in every TPV (`leapseconds`). Its other
    /// fields are not applied: the sentence takes no part in finding a cycle's end, and gpsd's time from a 10-bit
    /// week depends on the day gpsd runs.
    mutating func applyPGRMF(_ fields: NMEAFields) {
        let first = fields.first(5)
        guard first >= 0x30, first <= 0x39 else { return }
        fix.leapSeconds = fields.leadingInt(5)
    }
}
