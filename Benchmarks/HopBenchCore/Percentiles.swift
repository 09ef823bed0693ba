/// The percentiles hop-bench reports, in nanoseconds per operation.
public struct Percentiles: Sendable, Codable, Equatable {
    /// The fastest operation (exact).
    public var p0: Double
    /// The 25th percentile.
    public var p25: Double
    /// The median.
    public var p50: Double
    /// The 75th percentile.
    public var p75: Double
    /// The 90th percentile.
    public var p90: Double
    /// The 99th percentile.
    public var p99: Double
    /// The slowest operation (exact).
    public var p100: Double

    /// Percentiles given directly, in nanoseconds.
    public init(p0: Double, p25: Double, p50: Double, p75: Double, p90: Double, p99: Double, p100: Double) {
        self.p0 = p0
        self.p25 = p25
        self.p50 = p50
        self.p75 = p75
        self.p90 = p90
        self.p99 = p99
        self.p100 = p100
    }

    /// The values in column order, with their labels.
    public var labelled: [(label: String, value: Double)] {
        [("p0", p0), ("p25", p25), ("p50", p50), ("p75", p75), ("p90", p90), ("p99", p99), ("p100", p100)]
    }
}
