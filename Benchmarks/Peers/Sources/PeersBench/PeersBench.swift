import Foundation
import HopBenchCore

/// The peers-bench command: hop-bench's command line and harness over ``PeerCatalog``, then the peer table.
enum PeersBench {
    /// Runs hop-bench's `main` over the peer cases; after a measuring run, prints the side-by-side table read back
    /// from the JSON report (written to a temporary file when `--json` was not given).
    @concurrent
    static func main(arguments: [String]) async -> Int32 {
        guard let options = try? Options.parse(arguments), measures(options) else {
            return await HopBench.main(arguments: arguments, cases: PeerCatalog.all, ratios: PeerCatalog.ratios)
        }
        var arguments = arguments
        var temporary: String?
        if options.jsonPath == nil {
            let path = NSTemporaryDirectory() + "peers-bench-\(ProcessInfo.processInfo.processIdentifier).json"
            arguments += ["--json", path]
            temporary = path
        }
        let status = await HopBench.main(arguments: arguments, cases: PeerCatalog.all, ratios: PeerCatalog.ratios)
        let path = options.jsonPath ?? temporary ?? ""
        if let data = FileManager.default.contents(atPath: path), let report = try? Report.decode(data) {
            print("\nSingletonRegistry and its peers, side by side (median p50 of \(report.runsPerCase) rounds):\n")
            print(PeerTable.render(report), terminator: "")
        }
        if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
        fflush(nil)
        return status
    }

    /// Whether `options` ask for a measuring run (not a listing, a comparison, a plot or a child process).
    static func measures(_ options: Options) -> Bool {
        !(options.help || options.list || options.allocationProbe || options.fixedOperations != nil
            || options.compareOnlyPath != nil || options.plotFromPath != nil)
    }
}
