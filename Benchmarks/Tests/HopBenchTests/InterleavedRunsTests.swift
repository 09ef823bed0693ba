import HopBenchCore
import Synchronization
import Testing

/// Counts the calls of a test case's body.
final class CallCounter: Sendable {
    private let count = Atomic(0)

    /// The number of calls before this one.
    func next() -> Int { count.add(1, ordering: .relaxed).oldValue }
}

/// The cases that `interleaved` ratio rows measure sample by sample in turn.
@Suite struct InterleavedRunsTests {
    static func batched(_ name: String, nanoseconds: UInt64 = 1_000) -> BenchmarkCase {
        BenchmarkCase(batched: name, summary: "") { operations in nanoseconds &* UInt64(operations) }
    }

    @Test func onlyTheCasesOfInterleavedRowsAreGroupedAndRowsSharingACaseMerge() {
        let cases = ["a", "b", "c", "d", "e", "f"].map { Self.batched($0) }
        let ratios = [
            RatioCheck("d / b", numerator: ["d"], denominator: ["b"], limit: 2, interleaved: true),
            RatioCheck("e / d", numerator: ["e"], denominator: ["d"], limit: 2, interleaved: true),
            RatioCheck("c / a", numerator: ["c"], denominator: ["a"], limit: 2),
            RatioCheck("f / missing", numerator: ["f"], denominator: ["missing"], limit: 2, interleaved: true),
        ]
        #expect(InterleavedRuns.groups(of: cases, ratios: ratios) == [[1, 3, 4]])
    }

    /// A case whose first call is slow (here: reports 1 ms) still gets a batch of many operations: the size is
    /// decided by the quickest of a few calls, not by one cold call.
    @Test func oneSlowFirstCallDoesNotLeaveTheBatchAtOneOperation() async {
        let calls = CallCounter()
        let slowFirst = BenchmarkCase(batched: "slow first", summary: "") { operations in
            calls.next() == 0 ? 1_000_000 : 10 &* UInt64(operations)
        }
        var configuration = RunnerConfiguration.quick
        configuration.warmupNanoseconds = 0
        configuration.maximumSamples = 10
        let measured = await Runner(configuration: configuration).measureRun(of: [slowFirst])
        #expect(measured[0].operationsPerSample == 1024, "10 ns a call: 1,024 calls reach the 10 µs target")
    }

    @Test func aGroupRunGivesEachCaseItsOwnSamples() async {
        var configuration = RunnerConfiguration.quick
        configuration.warmupNanoseconds = 1_000_000
        configuration.maximumSamples = 50
        let runner = Runner(configuration: configuration)
        let measured = await runner.measureRun(of: [Self.batched("x", nanoseconds: 100), Self.batched("y")])
        #expect(measured.count == 2)
        #expect(measured[0].histogram.count > 0)
        #expect(measured[0].histogram.count == measured[1].histogram.count)
        #expect(measured[0].histogram.percentiles.p50 < measured[1].histogram.percentiles.p50)
    }
}
