/// A log-linear histogram of durations in picoseconds, in the manner of HdrHistogram.
///
/// Values below 256 ps have their own bucket; above, each power of two is split into 128 buckets, so a recorded
/// value is known to within 1/256 of itself (under 0.4 %). Minimum and maximum are kept exactly. Picoseconds let
/// a batched case record a per-operation figure such as 1.3 ns without rounding it to whole nanoseconds.
public struct Histogram: Sendable, Equatable {
    private static let linearLimit: UInt64 = 256
    private static let bucketsPerOctave = 128
    private static let bucketCount = 256 + 57 * 128

    private var counts: [UInt64]
    /// How many values were recorded.
    public private(set) var count: UInt64 = 0
    /// The smallest recorded value, in picoseconds (`UInt64.max` when empty).
    public private(set) var minimum: UInt64 = .max
    /// The largest recorded value, in picoseconds (0 when empty).
    public private(set) var maximum: UInt64 = 0

    /// An empty histogram.
    public init() {
        counts = Array(repeating: 0, count: Self.bucketCount)
    }

    /// Records one value, in picoseconds.
    public mutating func record(picoseconds value: UInt64) {
        counts[Self.bucket(of: value)] &+= 1
        count &+= 1
        minimum = Swift.min(minimum, value)
        maximum = Swift.max(maximum, value)
    }

    /// Records one value, in nanoseconds.
    public mutating func record(nanoseconds value: UInt64) {
        record(picoseconds: value.multipliedReportingOverflow(by: 1000).overflow ? .max : value &* 1000)
    }

    /// Adds every value recorded in `other`.
    public mutating func merge(_ other: Histogram) {
        for index in counts.indices { counts[index] &+= other.counts[index] }
        count &+= other.count
        minimum = Swift.min(minimum, other.minimum)
        maximum = Swift.max(maximum, other.maximum)
    }

    /// The value at quantile `q` (0...1) in picoseconds: the exact minimum for 0, the exact maximum for 1, else
    /// the middle of the bucket holding the `ceil(q × count)`-th smallest value, clamped to the exact extremes.
    public func value(atQuantile q: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        if q <= 0 { return minimum }
        if q >= 1 { return maximum }
        let rank = Swift.max(1, UInt64((q * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen &+= bucketCount
            if seen >= rank {
                let (low, high) = Self.bounds(ofBucket: index)
                let middle = low + (high - low) / 2
                return Swift.min(Swift.max(middle, minimum), maximum)
            }
        }
        return maximum
    }

    /// The standard percentiles of the recorded values.
    public var percentiles: Percentiles {
        Percentiles(
            p0: nanoseconds(value(atQuantile: 0)),
            p25: nanoseconds(value(atQuantile: 0.25)),
            p50: nanoseconds(value(atQuantile: 0.5)),
            p75: nanoseconds(value(atQuantile: 0.75)),
            p90: nanoseconds(value(atQuantile: 0.9)),
            p99: nanoseconds(value(atQuantile: 0.99)),
            p100: nanoseconds(value(atQuantile: 1))
        )
    }

    private func nanoseconds(_ picoseconds: UInt64) -> Double { Double(picoseconds) / 1000 }

    static func bucket(of value: UInt64) -> Int {
        if value < linearLimit { return Int(value) }
        let exponent = (63 - value.leadingZeroBitCount) - 7
        let mantissa = Int(value >> UInt64(exponent))
        return Int(linearLimit) + (exponent - 1) * bucketsPerOctave + (mantissa - bucketsPerOctave)
    }

    static func bounds(ofBucket index: Int) -> (low: UInt64, high: UInt64) {
        if index < Int(linearLimit) { return (UInt64(index), UInt64(index)) }
        let offset = index - Int(linearLimit)
        let exponent = offset / bucketsPerOctave + 1
        let mantissa = UInt64(offset % bucketsPerOctave + bucketsPerOctave)
        let low = mantissa << UInt64(exponent)
        let high = exponent >= 56 && mantissa == 255 ? UInt64.max : ((mantissa + 1) << UInt64(exponent)) - 1
        return (low, high)
    }
}
