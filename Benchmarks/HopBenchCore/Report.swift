import Foundation

/// The JSON report of one suite run: `--json` writes it, `--baseline` reads one back.
public struct Report: Sendable, Codable, Equatable {
    /// The format version; bumped when a field changes meaning.
    public var schema = 1
    /// The machine and toolchain.
    public var machine: MachineInfo
    /// When the suite started, ISO 8601 in UTC.
    public var date: String
    /// The command-line arguments.
    public var arguments: [String]
    /// Runs per case.
    public var runsPerCase: Int
    /// Each measured case.
    public var cases: [CaseResult]
    /// The derived ratio rows.
    public var ratios: [RatioResult]

    /// Assembles a report.
    public init(
        machine: MachineInfo,
        date: String,
        arguments: [String],
        runsPerCase: Int,
        cases: [CaseResult],
        ratios: [RatioResult]
    ) {
        self.machine = machine
        self.date = date
        self.arguments = arguments
        self.runsPerCase = runsPerCase
        self.cases = cases
        self.ratios = ratios
    }

    /// The report as pretty-printed JSON with sorted keys.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads a report written by `encoded()`.
    public static func decode(_ data: Data) throws -> Report {
        try JSONDecoder().decode(Report.self, from: data)
    }

    /// Now, as ISO 8601 in UTC.
    public static func timestamp() -> String {
        Date.now.ISO8601Format()
    }
}
