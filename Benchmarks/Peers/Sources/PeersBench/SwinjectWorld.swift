import Swinject

/// The Swinject containers the cases resolve from: the root, registered once, and its synchronized view.
///
/// `@unchecked Sendable`, and why that is safe: `Container` is a class with mutable state and no `Sendable`
/// conformance. Every registration on `root` happens in `init`, before `shared` is published (a `static let` is
/// initialised once, under `swift_once`, and its stores happen-before every load that sees it). After that, the
/// containers are used only inside case bodies, and hop-bench's runner runs one case body at a time, awaiting each
/// before it starts the next (`Runner.measureRun` in a `for` loop), each body in one task: no two threads ever use a
/// container at once. The reads a concurrent program would make go through `synchronized`, which takes the root's
/// recursive lock for every resolve as well.
final class SwinjectWorld: @unchecked Sendable {
    /// The container the app registers in, with container scope (one instance per container).
    let root: Container
    /// `root.synchronize()`: the resolver Swinject says to use from several threads.
    let synchronized: any Resolver

    /// The containers every Swinject case uses.
    static let shared = SwinjectWorld()

    private init() {
        let root = Container()
        root.register(PeerService.self) { _ in PeerService.live }.inObjectScope(.container)
        root.register(PeerClient.self) { _ in PeerClient.live }.inObjectScope(.container)
        for index in 1...20 {
            root.register(Int.self, name: Self.fillerName(index)) { _ in index }.inObjectScope(.container)
        }
        self.root = root
        self.synchronized = root.synchronize()
        for index in 1...20 {
            _ = root.resolve(Int.self, name: Self.fillerName(index))
        }
        _ = root.resolve(PeerService.self)
        _ = root.resolve(PeerClient.self)
    }

    /// The name of the `index`th of the twenty `Int` registrations.
    static func fillerName(_ index: Int) -> String {
        "filler\(index)"
    }

    /// An override scope, as a Swinject test makes one: a child container that registers the replacement.
    func scope(replacing service: PeerService) -> Container {
        let child = Container(parent: root)
        child.register(PeerService.self) { _ in service }.inObjectScope(.container)
        return child
    }

    /// An override scope that replaces one endpoint of the client and keeps the other.
    func scope(replacingFetch fetch: @escaping @Sendable (Int) -> Int) -> Container {
        let child = Container(parent: root)
        child.register(PeerClient.self) { _ in PeerClient(fetch: fetch, store: PeerClient.live.store) }
            .inObjectScope(.container)
        return child
    }

    /// A child container that overrides both the service and the client's `fetch`.
    func scopeReplacingBoth() -> Container {
        let child = scope(replacing: RegistryPeerCases.replacement)
        child.register(PeerClient.self) { _ in PeerClient(fetch: PeerClient.testFetch, store: PeerClient.live.store) }
            .inObjectScope(.container)
        return child
    }
}
