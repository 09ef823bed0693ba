/// Formats into a 1 KiB stack buffer that is appended to the caller's array in bulk: one append per line (or per
/// kilobyte) instead of a uniqueness and capacity check per byte.
///
/// Each write first reserves room for its longest possible output with `reserve`, which moves what the buffer holds
/// into the array when the rest would not fit; the writes themselves never check.
struct LineBuffer {
    static let capacity = 1_024

    /// The buffer's storage, `capacity` bytes.
    let base: UnsafeMutablePointer<UInt8>
    /// How many bytes it holds.
    var count = 0

    private init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// Runs `body` with a fresh buffer and appends what it wrote to `out`.
    @inline(__always)
    static func with(_ out: inout [UInt8], _ body: (inout LineBuffer, inout [UInt8]) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var w = LineBuffer(base: buffer.baseAddress!)
            body(&w, &out)
            w.flush(&out)
        }
    }

    /// Makes room for `bytes` more bytes (at most `capacity`).
    @inline(__always)
    mutating func reserve(_ bytes: Int, _ out: inout [UInt8]) {
        if count + bytes > Self.capacity { flush(&out) }
    }

    mutating func flush(_ out: inout [UInt8]) {
        guard count > 0 else { return }
        out.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    @inline(__always)
    mutating func byte(_ c: UInt8) {
        base[count] = c
        count &+= 1
    }

    /// A literal of at most the reserved length.
    @inline(__always)
    mutating func literal(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        (base + count).update(from: text.utf8Start, count: n)
        count &+= n
    }

    /// `,"name":value` when `value` is present and finite (at most 16 + 40 bytes).
    @inline(__always)
    mutating func number(_ key: StaticString, _ value: Double?, _ decimals: Int, _ out: inout [UInt8]) {
        guard let value, value.isFinite else { return }
        reserve(key.utf8CodeUnitCount + 40, &out)
        literal(key)
        fixed(value, decimals)
    }

    /// Exactly `digits` digits of `value`, zero-padded.
    @inline(__always)
    private mutating func padded(_ value: Int, _ digits: Int) {
        var v = value
        var k = count &+ digits
        while k > count {
            k &-= 1
            base[k] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
        }
        count &+= digits
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`: 24 bytes.
    mutating func time(_ time: GNSSTime) {
        let c = time.components
        if c.year >= 0, c.year <= 9_999 {
            // Two digits per store; every component but the year is in range by construction.
            pair(c.year / 100)
            pair(c.year % 100)
            byte(0x2D)
            pair(c.month)
            byte(0x2D)
            pair(c.day)
            byte(0x54)
            pair(c.hour)
            byte(0x3A)
            pair(c.minute)
            byte(0x3A)
            pair(c.second)
            byte(0x2E)
            byte(0x30 &+ UInt8(truncatingIfNeeded: c.millisecond / 100))
            pair(c.millisecond % 100)
            byte(0x5A)
            return
        }
        padded(c.year, 4)
        byte(0x2D)
        padded(c.month, 2)
        byte(0x2D)
        padded(c.day, 2)
        byte(0x54)
        padded(c.hour, 2)
        byte(0x3A)
        padded(c.minute, 2)
        byte(0x3A)
        padded(c.second, 2)
        byte(0x2E)
        padded(c.millisecond, 3)
        byte(0x5A)
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, as ``time(_:)`` writes it, with the date part from `dates` when it holds the
    /// same day (24 bytes, and the caller has reserved at least 25).
    mutating func time(_ time: GNSSTime, _ dates: inout DatePrefixCache) {
        let ms = time.millisecondsSince1970
        let day = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        guard dates.day == day || dates.update(day) else { return self.time(time) }
        dates.write(to: base + count)
        count &+= 11
        let msOfDay = Int(ms - day * 86_400_000)
        pair(msOfDay / 3_600_000)
        byte(0x3A)
        pair(msOfDay / 60_000 % 60)
        byte(0x3A)
        pair(msOfDay / 1_000 % 60)
        byte(0x2E)
        let millisecond = msOfDay % 1_000
        byte(0x30 &+ UInt8(truncatingIfNeeded: millisecond / 100))
        pair(millisecond % 100)
        byte(0x5A)
    }

    /// `,"time":"YYYY-MM-DDTHH:MM:SS.sssZ"`, the date part from `dates` (35 bytes, the caller has reserved 36).
    @inline(__always)
    mutating func timeMember(_ time: GNSSTime, _ dates: inout DatePrefixCache) {
        literal(",\"time\":\"")
        self.time(time, &dates)
        byte(0x22)
    }

    /// `bytes` as they are, of any length.
    mutating func bytes(_ bytes: [UInt8], _ out: inout [UInt8]) {
        guard bytes.count <= Self.capacity else {
            flush(&out)
            out.append(contentsOf: bytes)
            return
        }
        reserve(bytes.count, &out)
        bytes.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { (base + count).update(from: start, count: source.count) }
        }
        count &+= bytes.count
    }

    /// `text` as a JSON string with quotes and escapes, of any length.
    mutating func string(_ text: String, _ out: inout [UInt8]) {
        // Text without anything to escape, as device names are, in one copy.
        let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.count &+ 2 <= Self.capacity, !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C })
            else { return false }
            reserve(utf8.count &+ 2, &out)
            byte(0x22)
            if let source = utf8.baseAddress { (base + count).update(from: source, count: utf8.count) }
            count &+= utf8.count
            byte(0x22)
            return true
        }
        if copied == true { return }
        reserve(1, &out)
        byte(0x22)
        for c in text.utf8 {
            reserve(6, &out)
            switch c {
            case 0x22, 0x5C:
                byte(0x5C)
                byte(c)
            case 0x0A: literal("\\n")
            case 0x0D: literal("\\r")
            case 0x09: literal("\\t")
            case 0x00..<0x20:
                literal("\\u00")
                byte(Self.hex(c >> 4))
                byte(Self.hex(c & 15))
            default: byte(c)
            }
        }
        reserve(1, &out)
        byte(0x22)
    }

    @inline(__always)
    private static func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble }
}
