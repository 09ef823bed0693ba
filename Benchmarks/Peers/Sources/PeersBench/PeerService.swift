/// The shared service every library hands out in the plain read cases: a final, immutable class, so the three
/// libraries store and return the same kind of value (a reference) and none of them copies a payload.
final class PeerService: Sendable {
    /// Tells the live value from a replacement.
    let id: Int

    /// A service with the given identity.
    init(id: Int) {
        self.id = id
    }

    /// The value each library starts with.
    static let live = PeerService(id: 0)
}
