/// Everything the suite measured for one case.
public struct CaseResult: Sendable, Codable, Equatable {
    /// The case's stable name.
    public var name: String
    /// How the case was timed.
    public var kind: BenchmarkCase.Kind
    /// One line saying what one operation is.
    public var summary: String
    /// Each run on its own.
    public var runs: [RunResult]
    /// Percentiles over the samples of all runs together, in ns per operation.
    public var percentiles: Percentiles
    /// The median of the runs' p50s: the figure baselines and ratio rows use.
    public var medianP50: Double
    /// Samples over all runs.
    public var samples: Int
    /// Heap allocations per operation, counted with glibc's mtrace; nil when not counted.
    public var allocationsPerOperation: Double?
    /// Heap bytes requested per operation, counted with glibc's mtrace; nil when not counted.
    public var allocatedBytesPerOperation: Double?
    /// What one operation processes, if the case reports a rate.
    public var throughput: Throughput?
    /// The latency distribution over all runs' samples: the value in nanoseconds at each of
    /// ``Distribution/quantiles``, for plots. Absent in reports written before it existed.
    public var distribution: [Double]?

    /// Assembles a result; `medianP50` is derived from `runs`.
    public init(
        name: String,
        kind: BenchmarkCase.Kind,
        summary: String,
        runs: [RunResult],
        percentiles: Percentiles,
        samples: Int,
        throughput: Throughput? = nil
    ) {
        self.name = name
        self.kind = kind
        self.summary = summary
        self.runs = runs
        self.percentiles = percentiles
        self.medianP50 = Self.median(runs.map(\.percentiles.p50))
        self.samples = samples
        self.throughput = throughput
    }

    /// The median of `values` (the mean of the middle two for an even count; 0 when empty).
    public static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
