/// A library the benchmark measures: this package or one of its peers.
enum PeerLibrary: String, Sendable, CaseIterable {
    /// SingletonRegistry: `appSingletons` and `withSingletons`.
    case registry
    /// pointfreeco/swift-dependencies 1.17.1: `@Dependency` and `withDependencies`.
    case dependencies
    /// Swinject 2.10.0: `Container.resolve`, container scope, child containers as override scopes.
    case swinject

    /// The prefix of the library's case names.
    var prefix: String {
        switch self {
        case .registry: "registry"
        case .dependencies: "deps"
        case .swinject: "swinject"
        }
    }

    /// The column heading of the library in the peer table.
    var title: String {
        switch self {
        case .registry: "SingletonRegistry"
        case .dependencies: "swift-dependencies"
        case .swinject: "Swinject"
        }
    }

    /// The peers, compared with ``registry``.
    static let peers: [PeerLibrary] = [.dependencies, .swinject]
}
