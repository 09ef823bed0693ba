import Foundation

/// The hop-bench command: parses the arguments, measures the selected cases and reports.
public enum HopBench {
    /// Exit statuses, after sysexits.h.
    public enum ExitStatus {
        /// Everything ran; no regression (and no failed ratio row under `--enforce-ratios`).
        public static let success: Int32 = 0
        /// A case regressed past the threshold, or a ratio row failed under `--enforce-ratios`.
        public static let regression: Int32 = 1
        /// The command line was wrong (EX_USAGE).
        public static let usage: Int32 = 64
        /// A JSON report could not be decoded (EX_DATAERR).
        public static let badData: Int32 = 65
        /// A JSON report could not be read (EX_NOINPUT).
        public static let noInput: Int32 = 66
        /// A file could not be written (EX_CANTCREAT).
        public static let cannotCreate: Int32 = 73
        /// Allocation counting was asked for outside its child process (EX_SOFTWARE).
        public static let software: Int32 = 70
    }

    /// Runs hop-bench with `arguments` (without the program name) over `cases`, and returns the exit status.
    ///
    /// Runs off the main actor, so cases that hop to the main actor find it free.
    @concurrent
    public static func main(arguments: [String], cases: [BenchmarkCase], ratios: [RatioCheck]) async -> Int32 {
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            printError("hop-bench: \(error)\n\(Options.usage)")
            return ExitStatus.usage
        }
        if options.help {
            print(Options.usage)
            return ExitStatus.success
        }
        let selected = cases.filter { options.selects($0.name) }
        if options.list {
            for benchmark in selected {
                print("\(benchmark.name)\t\(benchmark.kind.rawValue)\t\(benchmark.summary)")
            }
            return ExitStatus.success
        }
        if let reportPath = options.plotFromPath, let plotPath = options.plotPath {
            switch load(reportPath) {
            case .success(let report): return plot(report, to: plotPath)
            case .failure(let failure): return failure.status
            }
        }
        if let currentPath = options.compareOnlyPath, let baselinePath = options.baselinePath {
            return compare(baselinePath: baselinePath, currentPath: currentPath, options: options)
        }
        if options.allocationProbe {
            return await probeAllocations(selected, options: options)
        }
        if let operations = options.fixedOperations {
            for benchmark in selected {
                switch benchmark.body {
                case .batched(let body): _ = await body(operations)
                case .perOperation(let body): _ = await body(operations)
                }
            }
            return ExitStatus.success
        }
        return await measure(selected, ratios: ratios, options: options, arguments: arguments)
    }

    /// `--compare-only`: compares two JSON reports and returns 1 when the current one regressed.
    public static func compare(baselinePath: String, currentPath: String, options: Options) -> Int32 {
        let baseline: Report
        let current: Report
        switch (load(baselinePath), load(currentPath)) {
        case (.success(let old), .success(let new)):
            baseline = old
            current = new
        case (.failure(let failure), _), (_, .failure(let failure)):
            return failure.status
        }
        let comparison = BaselineComparison(
            baseline: baseline,
            current: current,
            thresholdPercent: options.thresholdPercent
        )
        print("compared with \(baselinePath) (\(baseline.date))")
        print(comparison.table, terminator: "")
        return comparison.hasRegression ? ExitStatus.regression : ExitStatus.success
    }

    private static func load(_ path: String) -> Result<Report, LoadFailure> {
        guard let data = FileManager.default.contents(atPath: path) else {
            printError("hop-bench: cannot read \(path)")
            return .failure(LoadFailure(status: ExitStatus.noInput))
        }
        do {
            return .success(try Report.decode(data))
        } catch {
            printError("hop-bench: \(path) is not a hop-bench JSON report: \(error)")
            return .failure(LoadFailure(status: ExitStatus.badData))
        }
    }

    private struct LoadFailure: Error {
        var status: Int32
    }

    private static func probeAllocations(_ selected: [BenchmarkCase], options: Options) async -> Int32 {
        guard let counter = AllocationCounter.start(environment: ProcessInfo.processInfo.environment) else {
            printError("hop-bench: --allocation-probe runs only under libc_malloc_debug with MALLOC_TRACE set")
            return ExitStatus.software
        }
        let runner = Runner(configuration: options.configuration)
        for (index, benchmark) in selected.enumerated() {
            await runner.countAllocations(benchmark, index: index, with: counter)
        }
        let tallies = counter.tallies()
        for (index, benchmark) in selected.enumerated() {
            if let counted = runner.allocationsPerOperation(of: benchmark, index: index, tallies: tallies) {
                print(
                    AllocationProbe.line(name: benchmark.name, allocations: counted.allocations, bytes: counted.bytes)
                )
            }
        }
        return ExitStatus.success
    }

    private static func measure(
        _ selected: [BenchmarkCase],
        ratios: [RatioCheck],
        options: Options,
        arguments: [String]
    ) async -> Int32 {
        guard !selected.isEmpty else {
            printError("hop-bench: no case matches --filter \(options.filter ?? "")")
            return ExitStatus.usage
        }
        var baseline: Report?
        if let path = options.baselinePath {
            switch load(path) {
            case .success(let report): baseline = report
            case .failure(let failure): return failure.status
            }
        }
        let machine = MachineInfo.current()
        let date = Report.timestamp()
        print("hop-bench  \(date)\n\(machine.description)")
        if machine.buildConfiguration == "debug" {
            print("WARNING: debug build; figures mean nothing. Use `swift run -c release hop-bench`.")
        }
        let configuration = options.configuration
        print("\(configuration.runs) runs per case\(options.quick ? " (--quick)" : "")\n")
        flush()

        let runner = Runner(configuration: configuration)
        // Interleaved: run 1 of every case, then run 2 of every case, ..., so that both sides of a ratio row see the
        // same phases of a noisy machine; the cases of an `interleaved` row, at the place of the first of them, sample
        // by sample in turn.
        let rounds = Swift.max(1, configuration.runs)
        let groups = InterleavedRuns.groups(of: selected, ratios: ratios)
        let groupOf = Dictionary(groups.flatMap { group in group.map { ($0, group) } }, uniquingKeysWith: { a, _ in a })
        var runs = Array(repeating: [RunMeasurement](), count: selected.count)
        for round in 1...rounds {
            for (index, benchmark) in selected.enumerated() {
                guard let group = groupOf[index] else {
                    printError("  measuring \(benchmark.name) (run \(round) of \(rounds))")
                    runs[index].append(await runner.measureRun(benchmark))
                    continue
                }
                guard group[0] == index else { continue }
                let names = group.map { selected[$0].name }.joined(separator: " + ")
                printError("  measuring \(names) in turn (run \(round) of \(rounds))")
                let measured = await runner.measureRun(of: group.map { selected[$0] })
                for (member, measurement) in zip(group, measured) { runs[member].append(measurement) }
            }
        }
        var results = selected.indices.map { Runner.result(of: selected[$0], runs: runs[$0]) }
        if options.countAllocations {
            printError("  counting allocations (child process under libc_malloc_debug)")
            var passThrough = options.quick ? ["--quick"] : []
            if let filter = options.filter { passThrough += ["--filter", filter] }
            let counts = AllocationProbe.run(passThrough: passThrough)
            for index in results.indices {
                if let counted = counts[results[index].name] {
                    results[index].allocationsPerOperation = counted.allocations
                    results[index].allocatedBytesPerOperation = counted.bytes
                }
            }
        }
        let ratioResults = ratios.map { $0.evaluate(results) }
        print(ResultsTable.render(results))
        print(ResultsTable.render(ratioResults))
        var status = ExitStatus.success
        if options.enforceRatios && ratioResults.contains(where: { $0.status == .fail }) {
            status = ExitStatus.regression
        }
        let report = Report(
            machine: machine,
            date: date,
            arguments: arguments,
            runsPerCase: configuration.runs,
            cases: results,
            ratios: ratioResults
        )
        if let path = options.jsonPath {
            do {
                try report.encoded().write(to: URL(fileURLWithPath: path))
                print("JSON report written to \(path)")
            } catch {
                printError("hop-bench: cannot write \(path): \(error)")
                return ExitStatus.cannotCreate
            }
        }
        if let plotPath = options.plotPath, plot(report, to: plotPath) != ExitStatus.success {
            return ExitStatus.cannotCreate
        }
        if let baseline {
            let comparison = BaselineComparison(
                baseline: baseline,
                current: report,
                thresholdPercent: options.thresholdPercent
            )
            print("\ncompared with \(options.baselinePath ?? "") (\(baseline.date))")
            print(comparison.table, terminator: "")
            if comparison.hasRegression { status = ExitStatus.regression }
        }
        flush()
        return status
    }

    private static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    private static func flush() {
        fflush(nil)
    }

    /// Writes the SVG plot of `report` to `path`.
    static func plot(_ report: Report, to path: String) -> Int32 {
        do {
            try Data(LatencyPlot.svg(report).utf8).write(to: URL(fileURLWithPath: path))
            print("latency plot written to \(path)")
            return ExitStatus.success
        } catch {
            printError("hop-bench: cannot write \(path): \(error)")
            return ExitStatus.cannotCreate
        }
    }
}
