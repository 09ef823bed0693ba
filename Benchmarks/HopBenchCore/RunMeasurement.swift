/// What one run of a case measured: a histogram of per-operation times and, for a batched case, the inner-loop size.
public struct RunMeasurement: Sendable {
    /// The run's samples, in picoseconds per operation.
    public var histogram: Histogram
    /// Operations per sample: the batch size for a batched case, 1 for a per-operation case.
    public var operationsPerSample: Int
}
