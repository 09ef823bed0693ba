import SingletonRegistry

/// The registry's key of ``PeerService``, declared outside the registry's module as a user declares theirs.
enum PeerServiceKey: SingletonKey {
    static var liveValue: PeerService { PeerService.live }
}

extension AppSingletons {
    /// The shared ``PeerService``.
    var peerService: PeerService {
        get { self[PeerServiceKey.self] }
        set { self[PeerServiceKey.self] = newValue }
    }
}
