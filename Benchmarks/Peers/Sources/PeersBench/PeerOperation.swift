import HopBenchCore

/// One operation the three libraries are compared on: its name suffix and what the table calls it.
struct PeerOperation: Sendable {
    /// The case name after the library's prefix: `read` gives `registry.read`, `deps.read` and `swinject.read`.
    let suffix: String
    /// The row's label in the peer table.
    let label: String

    static let read = PeerOperation(suffix: "read", label: "read, no override")
    static let readOverridden = PeerOperation(suffix: "read.overridden", label: "read inside an override scope")
    static let scope = PeerOperation(suffix: "scope", label: "scope enter+leave, one value replaced")
    static let scopeNonisolated = PeerOperation(
        suffix: "scope.nonisolated", label: "scope enter+leave from nonisolated code")
    static let readTwentyKeys = PeerOperation(suffix: "read.20keys", label: "read the 20th of 20 keys")
    static let readNonisolated = PeerOperation(suffix: "read.nonisolated", label: "read from nonisolated code")
    static let closuresRead = PeerOperation(suffix: "closures.read", label: "closures: read + call, no override")
    static let closuresReadOverridden = PeerOperation(
        suffix: "closures.read.overridden", label: "closures: read + call, one endpoint overridden")
    static let closuresScope = PeerOperation(
        suffix: "closures.scope", label: "closures: scope enter+leave, one endpoint replaced")
    static let closuresReadNonisolated = PeerOperation(
        suffix: "closures.read.nonisolated", label: "closures: nonisolated read + call, overridden")

    /// Every operation, in table order.
    static let all: [PeerOperation] = [
        read, readOverridden, scope, scopeNonisolated, readTwentyKeys, readNonisolated, closuresRead,
        closuresReadOverridden,
        closuresScope, closuresReadNonisolated,
    ]

    /// The case name of this operation in `library`.
    func name(_ library: PeerLibrary) -> String {
        "\(library.prefix).\(suffix)"
    }

    /// A batched case of this operation in `library`.
    func batched(
        _ library: PeerLibrary,
        _ summary: String,
        body: @escaping @concurrent @Sendable (_ operations: Int) async -> UInt64
    ) -> BenchmarkCase {
        BenchmarkCase(batched: name(library), summary: summary, body: body)
    }
}
