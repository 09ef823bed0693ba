/// How long and how often the runner measures each case.
public struct RunnerConfiguration: Sendable, Equatable {
    /// Independent runs of each case (each with its own warm-up); the report gives each run's p50 and their median.
    public var runs: Int
    /// Time spent running a case untimed before each run.
    public var warmupNanoseconds: UInt64
    /// Time budget for the samples of one run.
    public var measurementNanoseconds: UInt64
    /// The most samples one run takes.
    public var maximumSamples: Int
    /// How long one sample of a batched case should take; the inner loop is scaled up until it does.
    public var batchTargetNanoseconds: UInt64
    /// How many operations a per-operation case performs per call of its body.
    public var perOperationChunk: Int
    /// Operations in the smaller of the two allocation-counting passes (the larger one does twice as many).
    public var allocationOperations: Int

    /// The full suite: 3 runs of up to 1 s and 10,000 samples each.
    public static let standard = RunnerConfiguration(
        runs: 3,
        warmupNanoseconds: 100_000_000,
        measurementNanoseconds: 1_000_000_000,
        maximumSamples: 10_000,
        batchTargetNanoseconds: 20_000,
        perOperationChunk: 500,
        allocationOperations: 1000
    )

    /// `--quick`: the same shape in about a tenth of the time, to keep the suite building and running in CI.
    public static let quick = RunnerConfiguration(
        runs: 3,
        warmupNanoseconds: 10_000_000,
        measurementNanoseconds: 80_000_000,
        maximumSamples: 1000,
        batchTargetNanoseconds: 10_000,
        perOperationChunk: 100,
        allocationOperations: 200
    )
}
