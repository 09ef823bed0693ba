/// A report compared with a baseline, case by case, on the median of the runs' p50s.
public struct BaselineComparison: Sendable, Equatable {
    /// How one case compares.
    public enum Verdict: String, Sendable, Equatable {
        /// Within the threshold either way.
        case unchanged
        /// Slower by more than the threshold.
        case regression
        /// Faster by more than the threshold.
        case improvement
        /// In the current report only.
        case new
        /// In the baseline only.
        case missing
    }

    /// One case's row.
    public struct Row: Sendable, Equatable {
        /// The case name.
        public var name: String
        /// The baseline's median p50 in ns, if the baseline has the case.
        public var baseline: Double?
        /// The current median p50 in ns, if the current report has the case.
        public var current: Double?
        /// The change in percent of the baseline (positive is slower).
        public var changePercent: Double?
        /// The verdict under the threshold.
        public var verdict: Verdict
    }

    /// The rows, in the current report's order, then cases only the baseline has.
    public var rows: [Row]
    /// The threshold in percent.
    public var thresholdPercent: Double

    /// Whether any case regressed past the threshold.
    public var hasRegression: Bool { rows.contains { $0.verdict == .regression } }

    /// Compares `current` with `baseline`. A case slower by more than `thresholdPercent` is a regression.
    public init(baseline: Report, current: Report, thresholdPercent: Double) {
        self.thresholdPercent = thresholdPercent
        let old = Dictionary(baseline.cases.map { ($0.name, $0.medianP50) }, uniquingKeysWith: { first, _ in first })
        let currentNames = Set(current.cases.map(\.name))
        var rows: [Row] = current.cases.map { result in
            guard let before = old[result.name] else {
                return Row(name: result.name, baseline: nil, current: result.medianP50, verdict: .new)
            }
            let change = before > 0 ? (result.medianP50 - before) / before * 100 : 0
            let verdict: Verdict =
                change > thresholdPercent ? .regression : change < -thresholdPercent ? .improvement : .unchanged
            return Row(
                name: result.name,
                baseline: before,
                current: result.medianP50,
                changePercent: change,
                verdict: verdict
            )
        }
        for result in baseline.cases where !currentNames.contains(result.name) {
            rows.append(Row(name: result.name, baseline: result.medianP50, current: nil, verdict: .missing))
        }
        self.rows = rows
    }

    /// The comparison as a plain-text table.
    public var table: String {
        var table = TextTable(header: ["case", "baseline p50", "current p50", "change", "verdict"])
        for row in rows {
            table.append([
                row.name,
                row.baseline.map(TextTable.nanoseconds) ?? "-",
                row.current.map(TextTable.nanoseconds) ?? "-",
                row.changePercent.map { ($0 >= 0 ? "+" : "") + TextTable.fixed($0, digits: 1) + " %" } ?? "-",
                row.verdict == .regression ? "REGRESSION" : row.verdict.rawValue,
            ])
        }
        let regressions = rows.filter { $0.verdict == .regression }.count
        return table.rendered + "threshold \(TextTable.fixed(thresholdPercent, digits: 1)) %: "
            + (regressions == 0 ? "no regression\n" : "\(regressions) regression(s)\n")
    }
}
