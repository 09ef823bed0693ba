/// The default plain-text output: one row per case, then the ratio rows.
public enum ResultsTable {
    /// The case table: percentiles over all runs, each run's p50 and their median, samples, allocations, rates.
    public static func render(_ results: [CaseResult]) -> String {
        var table = TextTable(
            header: ["case", "timing"] + ["p0", "p25", "p50", "p75", "p90", "p99", "p100"]
                + ["p50 by run", "median", "samples", "allocs/op", "bytes/op", "rate at p50"]
        )
        for result in results {
            let runs = result.runs.map { TextTable.nanoseconds($0.percentiles.p50) }.joined(separator: " ")
            table.append(
                [result.name, result.kind == .batched ? "batch" : "per-op"]
                    + result.percentiles.labelled.map { TextTable.nanoseconds($0.value) }
                    + [
                        runs,
                        TextTable.nanoseconds(result.medianP50),
                        TextTable.grouped(result.samples),
                        result.allocationsPerOperation.map { TextTable.fixed($0, digits: 2) } ?? "n/a",
                        result.allocatedBytesPerOperation.map { TextTable.fixed($0, digits: 0) } ?? "n/a",
                        rate(result),
                    ]
            )
        }
        return "all figures in ns per operation; percentiles over all runs' samples\n" + table.rendered
    }

    /// The ratio rows.
    public static func render(_ ratios: [RatioResult]) -> String {
        var table = TextTable(header: ["ratio row (median p50s, same run)", "ratio", "limit", "status"])
        for ratio in ratios {
            table.append([
                ratio.name,
                ratio.ratio.map { TextTable.fixed($0, digits: 2) } ?? "-",
                ratio.limit.map { "<= " + TextTable.fixed($0, digits: 2) } ?? "-",
                ratio.status == .skipped
                    ? "skipped (not run: \(ratio.missing.joined(separator: ", ")))"
                    : ratio.status == .fail ? "FAIL" : ratio.status.rawValue,
            ])
        }
        return table.rendered
    }

    private static func rate(_ result: CaseResult) -> String {
        guard let throughput = result.throughput, result.medianP50 > 0 else { return "" }
        let perSecond = 1e9 / result.medianP50
        var text = TextTable.grouped(Int(perSecond * throughput.itemsPerOperation)) + " \(throughput.itemName)/s"
        if let bytes = throughput.bytesPerOperation {
            text += ", " + TextTable.fixed(perSecond * bytes / 1e6, digits: 1) + " MB/s"
        }
        return text
    }
}
