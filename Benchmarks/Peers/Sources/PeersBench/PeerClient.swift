/// A client as a struct of closures, the shape swift-dependencies recommends and tests override one endpoint of.
struct PeerClient: Sendable {
    /// One endpoint: the cases call it, so a read is what a caller does with the client.
    var fetch: @Sendable (Int) -> Int
    /// A second endpoint, which the test-style overrides keep.
    var store: @Sendable (Int) -> Void

    /// The value each library starts with.
    static let live = PeerClient(fetch: { $0 &+ 1 }, store: { _ in })

    /// The endpoint a test puts in place of `fetch`.
    static let testFetch: @Sendable (Int) -> Int = { $0 &+ 2 }
}
