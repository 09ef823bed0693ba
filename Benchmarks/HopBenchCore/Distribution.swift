/// The quantiles at which a case's latency distribution is kept for plots.
public enum Distribution {
    /// 0, 0.01, 0.02 … 0.99, then 0.995, 0.999 and 1: every percentile, and the tail where latencies spread.
    public static let quantiles: [Double] = (0...99).map { Double($0) / 100 } + [0.995, 0.999, 1]
}
