/// A derived row: the sum of some cases' median p50s over the sum of others', measured in the same run, checked
/// against a limit. `registry.read ≤ 2 × (same-actor.call + tasklocal.read)` is one. A row with no denominator
/// checks the numerator's nanoseconds themselves: `registry.scope <= 500 ns`.
public struct RatioCheck: Sendable {
    /// The name shown in the table.
    public var name: String
    /// Cases whose p50s are added up above the fraction bar.
    public var numerator: [String]
    /// Cases whose p50s are added up below the fraction bar; none for a row in nanoseconds.
    public var denominator: [String]
    /// The largest acceptable ratio; nil for a row that only informs.
    public var limit: Double?
    /// Whether the row's cases are measured sample by sample in turn within each run (``Runner/measureRun(of:)``),
    /// so that a slow phase of the machine shorter than a run lands on both sides alike.
    public var interleaved: Bool

    /// A ratio row; `interleaved` measures its cases sample by sample in turn.
    public init(
        _ name: String, numerator: [String], denominator: [String], limit: Double? = nil, interleaved: Bool = false
    ) {
        self.name = name
        self.numerator = numerator
        self.denominator = denominator
        self.limit = limit
        self.interleaved = interleaved
    }

    /// Evaluates the row on `results`; the row is skipped when one of its cases did not run.
    public func evaluate(_ results: [CaseResult]) -> RatioResult {
        let p50 = Dictionary(results.map { ($0.name, $0.medianP50) }, uniquingKeysWith: { first, _ in first })
        let missing = (numerator + denominator).filter { p50[$0] == nil }
        guard missing.isEmpty else {
            return RatioResult(name: name, ratio: nil, limit: limit, status: .skipped, missing: missing)
        }
        let top = numerator.reduce(0) { $0 + p50[$1]! }
        let bottom = denominator.isEmpty ? 1 : denominator.reduce(0) { $0 + p50[$1]! }
        let ratio = bottom > 0 ? top / bottom : .infinity
        let status: RatioResult.Status =
            if let limit { ratio <= limit ? .pass : .fail } else { .informational }
        return RatioResult(name: name, ratio: ratio, limit: limit, status: status, missing: [])
    }
}

/// A ratio row evaluated on one run of the suite.
public struct RatioResult: Sendable, Codable, Equatable {
    /// Whether the row held.
    public enum Status: String, Sendable, Codable {
        /// Within the limit.
        case pass
        /// Past the limit.
        case fail
        /// No limit: the ratio is shown for information.
        case informational
        /// A case it needs did not run (filtered out, or not written yet).
        case skipped
    }

    /// The row's name.
    public var name: String
    /// The ratio of the median p50s, when every case ran.
    public var ratio: Double?
    /// The limit, if any.
    public var limit: Double?
    /// The outcome.
    public var status: Status
    /// Cases that did not run.
    public var missing: [String]
}
