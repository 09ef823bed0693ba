import Foundation
import HopBenchCore
import Testing

/// `--baseline PATH --threshold PCT` on a synthetic pair of JSON reports, through the command's own entry point.
@Suite final class BaselineComparisonTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hop-bench-tests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    static func report(_ p50s: [(String, Double)]) -> Report {
        let machine = MachineInfo(
            cpuModel: "Synthetic CPU",
            logicalCores: 2,
            activeCores: 2,
            kernel: "Linux test x86_64",
            memoryMiB: 1024,
            loadAverage: 0,
            compiler: "Swift 6.3.1",
            buildConfiguration: "release"
        )
        let cases = p50s.map { name, p50 in
            let percentiles = Percentiles(
                p0: p50 / 2, p25: p50, p50: p50, p75: p50, p90: p50, p99: p50, p100: p50 * 3)
            let run = RunResult(samples: 100, operationsPerSample: 1000, percentiles: percentiles)
            return CaseResult(
                name: name,
                kind: .batched,
                summary: "synthetic",
                runs: [run, run, run],
                percentiles: percentiles,
                samples: 300
            )
        }
        return Report(
            machine: machine,
            date: "2026-01-01T00:00:00Z",
            arguments: [],
            runsPerCase: 3,
            cases: cases,
            ratios: []
        )
    }

    func write(_ report: Report, _ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try report.encoded().write(to: url)
        return url.path
    }

    func compare(_ baseline: String, _ current: String, threshold: String = "10") async -> Int32 {
        await HopBench.main(
            arguments: ["--baseline", baseline, "--compare-only", current, "--threshold", threshold],
            cases: [],
            ratios: []
        )
    }

    @Test func slowdownPastTheThresholdExitsOne() async throws {
        let baseline = try write(Self.report([("actor.call", 60), ("mutex.withLock", 16)]), "a.json")
        let current = try write(Self.report([("actor.call", 72), ("mutex.withLock", 16)]), "b.json")
        #expect(await compare(baseline, current) == HopBench.ExitStatus.regression)
    }

    @Test func slowdownWithinTheThresholdExitsZero() async throws {
        let baseline = try write(Self.report([("actor.call", 60), ("mutex.withLock", 16)]), "a.json")
        let current = try write(Self.report([("actor.call", 65), ("mutex.withLock", 15)]), "b.json")
        #expect(await compare(baseline, current) == HopBench.ExitStatus.success)
        #expect(await compare(baseline, current, threshold: "5") == HopBench.ExitStatus.regression)
    }

    @Test func speedupsNewAndMissingCasesAreNotRegressions() throws {
        let comparison = BaselineComparison(
            baseline: Self.report([("actor.call", 60), ("dispatch.sync", 90)]),
            current: Self.report([("actor.call", 30), ("registry.hop", 70)]),
            thresholdPercent: 10
        )
        #expect(!comparison.hasRegression)
        #expect(comparison.rows.map(\.verdict) == [.improvement, .new, .missing])
        #expect(comparison.rows.first?.changePercent == -50)
    }

    @Test func unreadableOrForeignFilesAreReportedNotCompared() async throws {
        let baseline = try write(Self.report([("actor.call", 60)]), "a.json")
        let garbage = directory.appendingPathComponent("garbage.json")
        try Data("{\"not\": \"a report\"}".utf8).write(to: garbage)
        #expect(await compare(baseline, garbage.path) == HopBench.ExitStatus.badData)
        #expect(
            await compare(baseline, directory.appendingPathComponent("absent.json").path)
                == HopBench.ExitStatus.noInput)
    }

    @Test func aReportSurvivesTheJSONRoundTrip() throws {
        let report = Self.report([("actor.call", 61.5), ("call.baseline", 1.25)])
        #expect(try Report.decode(report.encoded()) == report)
        #expect(report.cases[0].medianP50 == 61.5)
    }
}
