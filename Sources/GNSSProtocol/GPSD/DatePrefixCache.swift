/// The text `YYYY-MM-DDT` of one day, kept by ``GPSDReportWriter`` so that the times of a stream, which mostly fall
/// on the day before, are written without the calendar arithmetic.
struct DatePrefixCache {
    /// Days since 1970-01-01 of the day held; `Int64.min` while none is.
    private(set) var day = Int64.min
    /// Bytes 0–7 of the text, first byte lowest.
    private var head: UInt64 = 0
    /// Bytes 8–10 of the text, first byte lowest; the fourth byte is 0.
    private var tail: UInt32 = 0

    /// Makes this the text of `day`; false, leaving it as it was, when the year is outside 0...9999 (which takes
    /// more or fewer than four digits).
    mutating func update(_ day: Int64) -> Bool {
        guard day >= -719_528, day <= 2_932_896 else { return false }
        let (y, m, d) = GNSSTime.civilFromDays(Int(day))
        guard y >= 0, y <= 9_999 else { return false }
        @inline(__always) func digit(_ v: Int) -> UInt64 { UInt64(truncatingIfNeeded: 0x30 + v) }
        head =
            digit(y / 1_000) | digit(y / 100 % 10) << 8 | digit(y / 10 % 10) << 16 | digit(y % 10) << 24
            | 0x2D << 32 | digit(m / 10) << 40 | digit(m % 10) << 48 | 0x2D << 56
        tail = UInt32(truncatingIfNeeded: digit(d / 10) | digit(d % 10) << 8 | 0x54 << 16)
        self.day = day
        return true
    }

    /// Writes the 11 bytes at `p`, and a 0 after them: `p` must have room for 12, the last one being the caller's
    /// to overwrite.
    @inline(__always)
    func write(to p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: head.littleEndian, as: UInt64.self)
        UnsafeMutableRawPointer(p + 8).storeBytes(of: tail.littleEndian, as: UInt32.self)
    }
}
