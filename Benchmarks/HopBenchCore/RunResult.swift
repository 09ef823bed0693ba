/// What one run of one case measured.
public struct RunResult: Sendable, Codable, Equatable {
    /// Samples recorded (batches for a batched case, operations for a per-operation one).
    public var samples: Int
    /// Operations per sample: the scaled inner loop for a batched case, 1 for a per-operation one.
    public var operationsPerSample: Int
    /// Percentiles of the per-operation time over this run's samples, in ns.
    public var percentiles: Percentiles

    /// A run's figures.
    public init(samples: Int, operationsPerSample: Int, percentiles: Percentiles) {
        self.samples = samples
        self.operationsPerSample = operationsPerSample
        self.percentiles = percentiles
    }
}
