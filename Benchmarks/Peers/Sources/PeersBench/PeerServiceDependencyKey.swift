import Dependencies

/// swift-dependencies' key of ``PeerService``.
enum PeerServiceDependencyKey: DependencyKey {
    static var liveValue: PeerService { PeerService.live }
}

extension DependencyValues {
    /// The shared ``PeerService``, read with `@Dependency(\.peerService)`.
    var peerService: PeerService {
        get { self[PeerServiceDependencyKey.self] }
        set { self[PeerServiceDependencyKey.self] = newValue }
    }
}
