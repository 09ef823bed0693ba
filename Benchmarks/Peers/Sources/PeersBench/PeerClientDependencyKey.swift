import Dependencies

/// swift-dependencies' key of ``PeerClient``.
enum PeerClientDependencyKey: DependencyKey {
    static var liveValue: PeerClient { PeerClient.live }
}

extension DependencyValues {
    /// The shared ``PeerClient``, read with `@Dependency(\.peerClient)`.
    var peerClient: PeerClient {
        get { self[PeerClientDependencyKey.self] }
        set { self[PeerClientDependencyKey.self] = newValue }
    }
}
