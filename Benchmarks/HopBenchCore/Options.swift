/// The command line of hop-bench.
public struct Options: Sendable, Equatable {
    /// Only cases whose name matches this regular expression run.
    public var filter: String?
    /// Short runs, for CI.
    public var quick = false
    /// Where to write the JSON report.
    public var jsonPath: String?
    /// Where to write the SVG plot of the latency distributions.
    public var plotPath: String?
    /// A JSON report to plot instead of measuring (with ``plotPath``).
    public var plotFromPath: String?
    /// A JSON report to compare against.
    public var baselinePath: String?
    /// The p50 slowdown, in percent, past which a case counts as a regression.
    public var thresholdPercent = 10.0
    /// Runs per case; nil keeps the configuration's default.
    public var runs: Int?
    /// Compare this JSON report with the baseline instead of measuring.
    public var compareOnlyPath: String?
    /// Skip the allocation-counting child process.
    public var countAllocations = true
    /// Exit non-zero when a ratio row with a limit fails.
    public var enforceRatios = false
    /// Print the case names and exit.
    public var list = false
    /// Print the usage and exit.
    public var help = false
    /// Internal: be the allocation-counting child.
    public var allocationProbe = false
    /// Run each selected case once with exactly this many operations, with no warm-up and no report: the fixed
    /// work `Benchmarks/instructions.sh` counts instructions over.
    public var fixedOperations: Int?

    /// Default options.
    public init() {}

    /// A command-line error: the message and the usage go to standard error, and the exit status is 64.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        /// What was wrong.
        public var description: String
    }

    /// The usage text.
    public static let usage = """
        usage: hop-bench [--filter REGEX] [--quick] [--runs N] [--json PATH]
                         [--baseline PATH [--threshold PCT] [--compare-only PATH]]
                         [--plot FILE.svg [--from-json PATH]] [--no-allocations] [--enforce-ratios]
                         [--operations N] [--list] [--help]

          --filter REGEX       run only cases whose name matches REGEX (e.g. '^actor\\.')
          --quick              short runs (seconds), for CI
          --runs N             independent runs per case (default 3)
          --json PATH          write a JSON report (machine, toolchain, date, percentiles, samples)
          --plot FILE.svg      draw each case's latency distribution (log-scale ns, percentile) as SVG
          --from-json PATH     with --plot: draw the report at PATH instead of measuring
          --baseline PATH      compare each case's median p50 with this JSON report; exit 1 on a regression
          --threshold PCT      slowdown in percent that counts as a regression (default 10)
          --compare-only PATH  compare the report at PATH with --baseline without measuring anything
          --no-allocations     do not count allocations (skips the libc_malloc_debug child process)
          --enforce-ratios     exit 1 when a ratio row with a limit fails
          --operations N       run each selected case once with N operations and print nothing (for callgrind)
          --list               print the case names and exit
        """

    /// Parses the arguments after the program name.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(for flag: String) throws(UsageError) -> String {
            guard let next = rest.popFirst(), !next.hasPrefix("--") else {
                throw UsageError(description: "\(flag) needs a value")
            }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--filter":
                let pattern = try value(for: argument)
                guard (try? Regex(pattern)) != nil else {
                    throw UsageError(description: "--filter: not a regular expression: \(pattern)")
                }
                options.filter = pattern
            case "--quick": options.quick = true
            case "--json": options.jsonPath = try value(for: argument)
            case "--plot": options.plotPath = try value(for: argument)
            case "--from-json": options.plotFromPath = try value(for: argument)
            case "--baseline": options.baselinePath = try value(for: argument)
            case "--compare-only": options.compareOnlyPath = try value(for: argument)
            case "--threshold":
                let text = try value(for: argument)
                guard let percent = Double(text), percent >= 0, percent.isFinite else {
                    throw UsageError(description: "--threshold needs a non-negative number, not \(text)")
                }
                options.thresholdPercent = percent
            case "--runs":
                let text = try value(for: argument)
                guard let runs = Int(text), (1...100).contains(runs) else {
                    throw UsageError(description: "--runs needs a whole number from 1 to 100, not \(text)")
                }
                options.runs = runs
            case "--operations":
                let text = try value(for: argument)
                guard let operations = Int(text), operations >= 1 else {
                    throw UsageError(description: "--operations needs a positive whole number, not \(text)")
                }
                options.fixedOperations = operations
            case "--no-allocations": options.countAllocations = false
            case "--enforce-ratios": options.enforceRatios = true
            case "--list": options.list = true
            case "--help", "-h": options.help = true
            case "--allocation-probe": options.allocationProbe = true
            default: throw UsageError(description: "unknown argument: \(argument)")
            }
        }
        if options.plotFromPath != nil && options.plotPath == nil {
            throw UsageError(description: "--from-json needs --plot")
        }
        if options.compareOnlyPath != nil && options.baselinePath == nil {
            throw UsageError(description: "--compare-only needs --baseline")
        }
        return options
    }

    /// The configuration these options select.
    public var configuration: RunnerConfiguration {
        var configuration = quick ? RunnerConfiguration.quick : .standard
        if let runs { configuration.runs = runs }
        return configuration
    }

    /// Whether a case of this name is selected by `--filter`.
    public func selects(_ name: String) -> Bool {
        guard let filter, let regex = try? Regex(filter) else { return true }
        return name.contains(regex)
    }
}
