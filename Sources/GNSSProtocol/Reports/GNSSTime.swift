/// An instant in UTC with millisecond resolution, as gpsd reports it.
///
/// Stored as milliseconds since 1970-01-01T00:00:00Z so that it is cheap to compare and to carry across
/// isolation domains; it formats and parses gpsd's ISO 8601 form (`2026-11-22T02:14:47.000Z`) without Foundation.
public struct GNSSTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch, UTC.
    public var millisecondsSince1970: Int64

    /// Creates a time from milliseconds since the Unix epoch.
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// Creates a time from a UTC calendar date and time of day; `nil` when a field is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int = 0) {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second), (0...999).contains(millisecond)
        else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
        self.millisecondsSince1970 = seconds * 1_000 + Int64(millisecond)
    }

    /// Orders times chronologically.
    public static func < (lhs: GNSSTime, rhs: GNSSTime) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// The UTC calendar fields of this instant.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let ms = millisecondsSince1970
        let days = Int(ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000)
        let msOfDay = Int(ms - Int64(days) * 86_400_000)
        let (y, m, d) = Self.civilFromDays(days)
        return (
            y, m, d, msOfDay / 3_600_000, (msOfDay / 60_000) % 60, (msOfDay / 1_000) % 60, msOfDay % 1_000
        )
    }

    /// Milliseconds since midnight UTC: what to compare when two sources disagree on the date.
    public var millisecondOfDay: Int {
        let r = millisecondsSince1970 % 86_400_000
        return Int(r >= 0 ? r : r + 86_400_000)
    }

    /// gpsd's form: `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public var description: String { iso8601 }

    /// gpsd's ISO 8601 form with milliseconds: `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public var iso8601: String {
        let c = components
        var out = [UInt8]()
        out.reserveCapacity(24)
        func put(_ value: Int, digits: Int) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            var v = value
            while divisor > 0 {
                out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: (v / divisor) % 10))
                v %= divisor
                divisor /= 10
            }
        }
        put(c.year, digits: 4)
        out.append(UInt8(ascii: "-"))
        put(c.month, digits: 2)
        out.append(UInt8(ascii: "-"))
        put(c.day, digits: 2)
        out.append(UInt8(ascii: "T"))
        put(c.hour, digits: 2)
        out.append(UInt8(ascii: ":"))
        put(c.minute, digits: 2)
        out.append(UInt8(ascii: ":"))
        put(c.second, digits: 2)
        out.append(UInt8(ascii: "."))
        put(c.millisecond, digits: 3)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z`; the fraction is rounded to milliseconds.
    public init?(iso8601 text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard let time = bytes.withUnsafeBufferPointer({ GNSSTime(iso8601UTF8: $0) }) else { return nil }
        self = time
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z` given as UTF-8 bytes, as ``init(iso8601:)`` does.
    init?(iso8601UTF8 b: UnsafeBufferPointer<UInt8>) {
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b.last == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var v = 0
            for i in range {
                let d = Int(b[i]) - 48
                guard (0...9).contains(d) else { return nil }
                v = v * 10 + d
            }
            return v
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var millisecond = 0
        if b.count > 20 {
            guard b[19] == UInt8(ascii: "."), b.count > 21 else { return nil }
            // The first four digits, rounded half up to milliseconds; further digits cannot change the result
            // except in the rounding digit's tie, which gpsd's own output never produces.
            var tenthsOfMs = 0
            var digits = 0
            for i in 20..<(b.count - 1) {
                let d = Int(b[i]) - 48
                guard (0...9).contains(d) else { return nil }
                if digits < 4 {
                    tenthsOfMs = tenthsOfMs * 10 + d
                    digits += 1
                }
            }
            while digits < 4 {
                tenthsOfMs *= 10
                digits += 1
            }
            millisecond = (tenthsOfMs + 5) / 10
        } else if b[19] != UInt8(ascii: "Z") {
            return nil
        }
        let carry = millisecond == 1_000
        guard
            var time = GNSSTime(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                millisecond: carry ? 0 : millisecond)
        else { return nil }
        if carry { time.millisecondsSince1970 += 1_000 }
        self = time
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (month <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, month, day)
    }
}
