/// Counters the NMEA decoder keeps about its input.
public struct NMEAStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Sentences framed: lines that started with `$` or `!` and ended, whatever became of them.
    public var sentences = 0
    /// Sentences decoded by a supported sentence parser (GGA, RMC, GLL, GNS, GSA, GSV, VTG, ZDA).
    public var decoded = 0
    /// Sentences dropped because their `*HH` checksum did not match.
    public var badChecksum = 0
    /// Sentences dropped because they were longer than 102 bytes from `$` through the checksum, as gpsd allows
    /// (real Trimble and SkyTraq sentences exceed the standard's 82).
    public var tooLong = 0
    /// Well-formed sentences of a type the decoder does not use (proprietary `$P...`, AIS `!`, `$GPRMB` ...).
    public var unsupported = 0
    /// Sentences with a valid frame whose fields could not be used (bad address, too few fields, bad values).
    public var malformed = 0
    /// Sentences cut short by a new `$`/`!` (two sentences spliced together), by a non-printable byte, or by the
    /// end of the input before their line end.
    public var truncated = 0
    /// Bytes skipped outside any sentence: binary noise, stray characters, u-blox UBX packets dropped because their
    /// checksum did not match or their length was over 9,216 bytes (comment lines are not counted).
    public var noiseBytes = 0
    /// u-blox UBX packets framed between the sentences (their leap seconds are used, the rest skipped).
    public var binaryPackets = 0
    /// `#` comment lines skipped.
    public var comments = 0
    /// Fixes emitted.
    public var fixes = 0
    /// Sky views emitted.
    public var skyViews = 0
    /// Times moved 1024 weeks forward under ``WeekRolloverRule/gpsd`` (each sentence whose time was moved counts).
    public var weekRolloverCorrections = 0

    /// Creates zeroed counters.
    public init() {}

    /// A one-line summary: `sentences 4999 decoded 1402 bad-checksum 0 ...`.
    public var description: String {
        "sentences \(sentences) decoded \(decoded) bad-checksum \(badChecksum) too-long \(tooLong) "
            + "unsupported \(unsupported) malformed \(malformed) truncated \(truncated) "
            + "noise-bytes \(noiseBytes) binary-packets \(binaryPackets) comments \(comments) fixes \(fixes) sky \(skyViews) "
            + "week-rollover-corrections \(weekRolloverCorrections)"
    }
}
