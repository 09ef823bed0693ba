import HopBenchCore
import Swinject

/// Swinject's side: `Container.resolve` with container scope, and a child container as the override scope (how
/// Swinject tests replace a registration). Like swift-dependencies it has no isolation; its nonisolated reads go
/// through `synchronize()`, the resolver Swinject requires when several threads resolve.
enum SwinjectPeerCases {
    /// The cases, in the order of ``PeerOperation/all``.
    static let all: [BenchmarkCase] = [
        PeerOperation.read.batched(.swinject, "container.resolve(PeerService.self)!, container scope") { n in
            read(n, from: SwinjectWorld.shared.root)
        },
        PeerOperation.readOverridden.batched(
            .swinject, "resolve from a child container that registers a replacement PeerService"
        ) { n in
            read(n, from: SwinjectWorld.shared.scopeReplacingBoth())
        },
        PeerOperation.scope.batched(
            .swinject, "Container(parent:) + register(PeerService.self) of the replacement, made and dropped"
        ) { n in
            enterAndLeave(n)
        },
        PeerOperation.scopeNonisolated.batched(
            .swinject,
            "nonisolated async: a child container replacing PeerService, made and dropped (as swinject.scope)"
        ) { n in
            enterAndLeave(n)
        },
        PeerOperation.readTwentyKeys.batched(.swinject, "resolve(Int.self, name: \"filler20\"), 20 registered") {
            n in
            readLastOfTwenty(n)
        },
        PeerOperation.readNonisolated.batched(
            .swinject, "nonisolated async: container.synchronize().resolve(PeerService.self)!"
        ) { n in
            read(n, from: SwinjectWorld.shared.synchronized)
        },
        PeerOperation.closuresRead.batched(.swinject, "container.resolve(PeerClient.self)!.fetch(i)") { n in
            readClient(n, from: SwinjectWorld.shared.root)
        },
        PeerOperation.closuresReadOverridden.batched(
            .swinject, "resolve(PeerClient.self)!.fetch(i) from a child container replacing fetch"
        ) { n in
            readClient(n, from: SwinjectWorld.shared.scopeReplacingBoth())
        },
        PeerOperation.closuresScope.batched(
            .swinject, "Container(parent:) + register(PeerClient.self) with fetch replaced, made and dropped"
        ) { n in
            enterAndLeaveClient(n)
        },
        PeerOperation.closuresReadNonisolated.batched(
            .swinject, "nonisolated async: child container replacing fetch, synchronize().resolve, fetch(i)"
        ) { n in
            readClient(n, from: SwinjectWorld.shared.scopeReplacingBoth().synchronize())
        },
    ]

    static func read(_ operations: Int, from resolver: any Resolver) -> UInt64 {
        let resolver = identity(resolver)
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            sum &+= resolver.resolve(PeerService.self)!.id
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    static func readLastOfTwenty(_ operations: Int) -> UInt64 {
        let resolver = identity(SwinjectWorld.shared.root)
        let name = identity(SwinjectWorld.fillerName(20))
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            sum &+= resolver.resolve(Int.self, name: name)!
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    static func readClient(_ operations: Int, from resolver: any Resolver) -> UInt64 {
        let resolver = identity(resolver)
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= resolver.resolve(PeerClient.self)!.fetch(index)
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    static func enterAndLeave(_ operations: Int) -> UInt64 {
        let world = SwinjectWorld.shared
        let service = identity(RegistryPeerCases.replacement)
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            let child = world.scope(replacing: service)
            sum &+= Int(bitPattern: ObjectIdentifier(child))
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    static func enterAndLeaveClient(_ operations: Int) -> UInt64 {
        let world = SwinjectWorld.shared
        let fetch = identity(PeerClient.testFetch)
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            let child = world.scope(replacingFetch: fetch)
            sum &+= Int(bitPattern: ObjectIdentifier(child))
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }
}
