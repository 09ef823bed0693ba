import HopBenchCore

/// Every case of peers-bench, and a ratio row for each peer's operation over this package's.
enum PeerCatalog {
    /// The cases, library by library; hop-bench's runner interleaves them round by round.
    static let all: [BenchmarkCase] = RegistryPeerCases.all + DependenciesPeerCases.all + SwinjectPeerCases.all

    /// `peer.op / registry.op` for every peer and operation, informational: CI prints them, nothing enforces them.
    /// Interleaved: the three libraries' cases of one operation are measured sample by sample in turn, so that a slow
    /// phase of the machine lands on all three alike.
    static let ratios: [RatioCheck] =
        PeerLibrary.peers.flatMap { peer in
            PeerOperation.all.map { operation in
                RatioCheck(
                    "\(operation.name(peer)) / \(operation.name(.registry))",
                    numerator: [operation.name(peer)],
                    denominator: [operation.name(.registry)],
                    interleaved: true
                )
            }
        } + [
            RatioCheck(
                "deps.scope.sync / registry.scope.sync", numerator: ["deps.scope.sync"],
                denominator: ["registry.scope.sync"], interleaved: true)
        ]
}
