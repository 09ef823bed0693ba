/// Measures cases: warm-up, scaled inner loops for batched cases, per-operation samples for slow ones, repeated
/// runs, and a histogram per run.
public struct Runner: Sendable {
    /// Budgets for warm-up and sampling.
    public let configuration: RunnerConfiguration

    /// A runner with the given budgets.
    public init(configuration: RunnerConfiguration) {
        self.configuration = configuration
    }

    /// One run of `benchmark` (its own warm-up, then samples): the histogram and the inner-loop size.
    ///
    /// `hop-bench` interleaves the runs of all selected cases (every case's first run, then every case's second
    /// run, ...), so that a slow phase of the machine lands on every case alike instead of on the runs of one.
    @concurrent
    public func measureRun(_ benchmark: BenchmarkCase) async -> RunMeasurement {
        let (histogram, operations) = await measureOnce(benchmark.body)
        return RunMeasurement(histogram: histogram, operationsPerSample: operations)
    }

    /// The result of `benchmark` from its runs, in the order they were measured.
    public static func result(of benchmark: BenchmarkCase, runs: [RunMeasurement]) -> CaseResult {
        var merged = Histogram()
        for run in runs { merged.merge(run.histogram) }
        var result = CaseResult(
            name: benchmark.name,
            kind: benchmark.kind,
            summary: benchmark.summary,
            runs: runs.map {
                RunResult(
                    samples: Int($0.histogram.count),
                    operationsPerSample: $0.operationsPerSample,
                    percentiles: $0.histogram.percentiles
                )
            },
            percentiles: merged.percentiles,
            samples: Int(merged.count),
            throughput: benchmark.throughput
        )
        result.distribution = Distribution.quantiles.map { Double(merged.value(atQuantile: $0)) / 1_000 }
        return result
    }

    /// Runs the allocation-counting passes of case number `index` under `counter`: a pass of N operations
    /// (pass `2 × index`) and one of 2N (pass `2 × index + 1`), after one warm-up pass of N. `allocationsPerOperation` turns
    /// the two counts into a per-operation figure.
    @concurrent
    public func countAllocations(_ benchmark: BenchmarkCase, index: Int, with counter: AllocationCounter) async {
        let operations = configuration.allocationOperations
        // The warm-up is one pass, not the timed warm-up (tracing stays on and is slow), and it goes through the
        // same marked path as the counted passes so one-off costs of that path land in it; the tally keeps the
        // last segment of a pass number, so the second pass 2 × index replaces it.
        for _ in 0..<2 {
            await counter.count(pass: 2 * index) { await Self.perform(benchmark.body, operations) }
        }
        await counter.count(pass: 2 * index + 1) { await Self.perform(benchmark.body, 2 * operations) }
    }

    /// Allocations and bytes per operation of case number `index`: the difference between its 2N pass and its N
    /// pass, divided by N, so fixed costs of a pass (a result array, a task) cancel out.
    ///
    /// A per-operation case reserves one 8-byte slot per operation for its durations; those 8 bytes are taken off.
    public func allocationsPerOperation(
        of benchmark: BenchmarkCase,
        index: Int,
        tallies: [Int: (allocations: Int, bytes: Int)]
    ) -> (allocations: Double, bytes: Double)? {
        guard let small = tallies[2 * index], let large = tallies[2 * index + 1] else { return nil }
        let operations = Double(configuration.allocationOperations)
        let timingBuffer = benchmark.kind == .perOperation ? Double(MemoryLayout<UInt64>.stride) : 0
        return (
            Double(large.allocations - small.allocations) / operations,
            Double(large.bytes - small.bytes) / operations - timingBuffer
        )
    }

    private static func perform(_ body: BenchmarkCase.Body, _ operations: Int) async {
        switch body {
        case .batched(let run): blackHole(await run(operations))
        case .perOperation(let run): blackHole(await run(operations))
        }
    }

    /// How many calls of a batched case's body are made at each inner-loop size while the size is found.
    static let calibrationCalls = 3

    /// Warms the case up and, for a batched case, finds the inner-loop size whose sample takes the target time.
    func warmUp(_ body: BenchmarkCase.Body) async -> Int {
        let deadline = MonotonicClock.now() &+ configuration.warmupNanoseconds
        switch body {
        case .batched(let run):
            var operations = 1
            while true {
                // The quickest of a few calls decides: one slow call (cold caches, a thread waking, the case's first
                // operation arming something) would otherwise leave the batch at one operation, whose figure is
                // then mostly the sample's own overhead (its clock read, the loop's first turn).
                var elapsed = UInt64.max
                for _ in 0..<Self.calibrationCalls { elapsed = Swift.min(elapsed, await run(operations)) }
                if elapsed >= configuration.batchTargetNanoseconds || operations >= 1 << 24 { break }
                operations *= elapsed < configuration.batchTargetNanoseconds / 8 ? 4 : 2
            }
            while MonotonicClock.now() < deadline { blackHole(await run(operations)) }
            return operations
        case .perOperation(let run):
            repeat {
                blackHole(await run(Swift.min(configuration.perOperationChunk, 50)))
            } while MonotonicClock.now() < deadline
            return 1
        }
    }

    private func measureOnce(_ body: BenchmarkCase.Body) async -> (Histogram, Int) {
        let operations = await warmUp(body)
        var histogram = Histogram()
        let deadline = MonotonicClock.now() &+ configuration.measurementNanoseconds
        let limit = UInt64(Swift.max(1, configuration.maximumSamples))
        switch body {
        case .batched(let run):
            repeat {
                let elapsed = await run(operations)
                histogram.record(picoseconds: elapsed &* 1000 / UInt64(operations))
            } while histogram.count < limit && MonotonicClock.now() < deadline
        case .perOperation(let run):
            repeat {
                let wanted = Swift.min(configuration.perOperationChunk, Int(limit - histogram.count))
                for duration in await run(wanted) { histogram.record(nanoseconds: duration) }
            } while histogram.count < limit && MonotonicClock.now() < deadline
        }
        return (histogram, operations)
    }
}
