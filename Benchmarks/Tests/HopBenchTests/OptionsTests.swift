import HopBenchCore
import Testing

/// The command line: what it accepts, and that a wrong one is refused (exit 64) instead of half-run.
@Suite struct OptionsTests {
    @Test func everyFlagIsRead() throws {
        let options = try Options.parse([
            "--filter", "^actor\\.", "--quick", "--json", "out.json", "--baseline", "base.json",
            "--threshold", "7.5", "--runs", "5", "--no-allocations", "--enforce-ratios",
        ])
        #expect(options.filter == "^actor\\.")
        #expect(options.quick)
        #expect(options.jsonPath == "out.json")
        #expect(options.baselinePath == "base.json")
        #expect(options.thresholdPercent == 7.5)
        #expect(options.configuration.runs == 5)
        #expect(!options.countAllocations)
        #expect(options.enforceRatios)
        #expect(options.selects("actor.call"))
        #expect(!options.selects("mutex.withLock"))
    }

    @Test(arguments: [
        ["--frobnicate"], ["--runs", "0"], ["--runs", "many"], ["--threshold", "-1"],
        ["--filter", "("],
        ["--json"], ["--compare-only", "b.json"],
    ])
    func aWrongCommandLineIsRefused(arguments: [String]) {
        #expect(throws: Options.UsageError.self) { try Options.parse(arguments) }
    }

    @Test func aWrongFlagExitsWithUsageStatus() async {
        let status = await HopBench.main(arguments: ["--frobnicate"], cases: [], ratios: [])
        #expect(status == HopBench.ExitStatus.usage)
    }

    @Test func quickIsShorterThanTheFullSuite() throws {
        let quick = try Options.parse(["--quick"]).configuration
        let full = try Options.parse([]).configuration
        #expect(quick.measurementNanoseconds < full.measurementNanoseconds)
        #expect(quick.maximumSamples < full.maximumSamples)
        #expect(quick.runs >= 3)
    }
}
