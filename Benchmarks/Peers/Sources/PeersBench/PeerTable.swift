import HopBenchCore

/// The side-by-side table: one row per operation, each library's median p50 and each peer's ratio to this package.
enum PeerTable {
    /// The table of `report`, as text; a cell is `-` where its case did not run, and an
    /// operation no library ran (`--filter`) has no row.
    static func render(_ report: Report) -> String {
        let p50 = Dictionary(report.cases.map { ($0.name, $0.medianP50) }, uniquingKeysWith: { first, _ in first })
        var header = ["operation (median p50, ns)", PeerLibrary.registry.title]
        for peer in PeerLibrary.peers {
            header += [peer.title, "x registry"]
        }
        var table = TextTable(header: header)
        for operation in PeerOperation.all
        where PeerLibrary.allCases.contains(where: { p50[operation.name($0)] != nil }) {
            let mine = p50[operation.name(.registry)]
            var row = [operation.label, mine.map(TextTable.nanoseconds) ?? "-"]
            for peer in PeerLibrary.peers {
                let theirs = p50[operation.name(peer)]
                row.append(theirs.map(TextTable.nanoseconds) ?? "-")
                row.append(ratio(theirs, over: mine))
            }
            table.append(row)
        }
        return table.rendered
    }

    /// `top / bottom` with two decimals, or `-` when either is missing or the bottom is zero.
    static func ratio(_ top: Double?, over bottom: Double?) -> String {
        guard let top, let bottom, bottom > 0 else { return "-" }
        return TextTable.fixed(top / bottom, digits: 2)
    }
}
