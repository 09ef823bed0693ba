import SingletonRegistry

/// The registry's key of ``PeerClient``.
enum PeerClientKey: SingletonKey {
    static var liveValue: PeerClient { PeerClient.live }
}

extension AppSingletons {
    /// The shared ``PeerClient``.
    var peerClient: PeerClient {
        get { self[PeerClientKey.self] }
        set { self[PeerClientKey.self] = newValue }
    }
}
