/// Groups of cases measured sample by sample in turn, and the measurement of one run of such a group.
///
/// A VM's slow phase (here: every case about 1.7–2 × slower for a fraction of a second to a few seconds) that falls
/// inside one case's run and not inside the next one's moves a ratio row of the two. Measured in turn, each sample of
/// one case is next to a sample of the other, 20 µs away: a phase then lands on both sides' samples alike, and their
/// p50s compare the same mixture of phases.
public enum InterleavedRuns {
    /// The groups of case indices in `cases` that the `interleaved` rows of `ratios` join: the cases of one row are in
    /// one group, and rows sharing a case merge their groups. Each group is in the order of `cases`; cases no such
    /// row names (or whose rows have a missing case) are in no group.
    public static func groups(of cases: [BenchmarkCase], ratios: [RatioCheck]) -> [[Int]] {
        let index = Dictionary(cases.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var group = Array(cases.indices)
        func root(_ member: Int) -> Int {
            var member = member
            while group[member] != member { member = group[member] }
            return member
        }
        var joined = Set<Int>()
        for row in ratios where row.interleaved {
            let members = (row.numerator + row.denominator).map { index[$0] }
            guard members.count > 1, !members.contains(nil) else { continue }
            let first = root(members[0]!)
            for member in members {
                group[root(member!)] = first
                joined.insert(member!)
            }
        }
        let byRoot = Dictionary(grouping: joined.sorted(), by: root)
        return byRoot.values.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    }
}

extension Runner {
    /// One run of each of `cases`, batched ones only: each warms up in turn, then their samples are taken in turn,
    /// one of each, until each case has its maximum of samples or the group's time (one run's time per case) is
    /// spent. Per-operation cases of the group are measured one after the other, as ``measureRun(_:)`` does.
    @concurrent
    public func measureRun(of cases: [BenchmarkCase]) async -> [RunMeasurement] {
        var measured: [RunMeasurement?] = Array(repeating: nil, count: cases.count)
        var loops: [(index: Int, run: @concurrent @Sendable (Int) async -> UInt64, operations: Int)] = []
        for (index, benchmark) in cases.enumerated() {
            switch benchmark.body {
            case .batched(let run): loops.append((index, run, await warmUp(benchmark.body)))
            case .perOperation: measured[index] = await measureRun(benchmark)
            }
        }
        var histograms = Array(repeating: Histogram(), count: cases.count)
        let deadline = MonotonicClock.now() &+ configuration.measurementNanoseconds &* UInt64(loops.count)
        let limit = UInt64(Swift.max(1, configuration.maximumSamples))
        while !loops.isEmpty {
            for loop in loops {
                let elapsed = await loop.run(loop.operations)
                histograms[loop.index].record(picoseconds: elapsed &* 1000 / UInt64(loop.operations))
            }
            if histograms[loops[0].index].count >= limit || MonotonicClock.now() >= deadline { break }
        }
        for loop in loops {
            measured[loop.index] = RunMeasurement(
                histogram: histograms[loop.index], operationsPerSample: loop.operations)
        }
        return measured.map { $0! }
    }
}
