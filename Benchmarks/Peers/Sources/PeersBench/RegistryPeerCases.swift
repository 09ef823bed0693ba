import HopBenchCore
import SingletonRegistry

/// This package's side of the comparison: `appSingletons` and `withSingletons`, read the way registry code reads
/// them (on `RegistryActor`) and the way nonisolated code does (`await appSingletons.x`, a hop).
enum RegistryPeerCases {
    /// The cases, in the order of ``PeerOperation/all``, then the synchronous scope.
    static let all: [BenchmarkCase] = [
        PeerOperation.read.batched(.registry, "on RegistryActor: appSingletons.peerService, no override") { n in
            await read(n)
        },
        PeerOperation.readOverridden.batched(
            .registry, "on RegistryActor: appSingletons.peerService inside withSingletons replacing it"
        ) { n in
            await overridden(n, read)
        },
        PeerOperation.scope.batched(
            .registry, "on RegistryActor: withSingletons({ $0.peerService = PeerService(id: i) }) { i }, a fresh value"
        ) { n in
            await enterAndLeave(n)
        },
        PeerOperation.scopeNonisolated.batched(
            .registry, "nonisolated async (as a test): withSingletons({ $0.peerService = PeerService(id: i) }) { i }"
        ) { n in
            await enterAndLeaveNonisolated(n)
        },
        PeerOperation.readTwentyKeys.batched(.registry, "on RegistryActor: the last of 20 declared keys") { n in
            await FillerKeys.declareInRegistry()
            return await readLastOfTwenty(n)
        },
        PeerOperation.readNonisolated.batched(
            .registry, "nonisolated async: await appSingletons.peerService (hop to RegistryActor and back)"
        ) { n in
            await readNonisolated(n)
        },
        PeerOperation.closuresRead.batched(.registry, "on RegistryActor: appSingletons.peerClient.fetch(i)") { n in
            await readClient(n)
        },
        PeerOperation.closuresReadOverridden.batched(
            .registry, "on RegistryActor: peerClient.fetch(i) inside withSingletons { $0.peerClient.fetch = ... }"
        ) { n in
            await overridden(n, readClient)
        },
        PeerOperation.closuresScope.batched(
            .registry, "on RegistryActor: withSingletons { $0.peerClient.fetch = ... }, entered and left"
        ) { n in
            await enterAndLeaveClient(n)
        },
        PeerOperation.closuresReadNonisolated.batched(
            .registry, "nonisolated async, inside withSingletons { $0.peerClient.fetch = ... }: await read, call"
        ) { n in
            await readClientNonisolatedOverridden(n)
        },
        BenchmarkCase(
            batched: "registry.scope.sync",
            summary: "on RegistryActor: withSingletons({ $0.peerService = PeerService(id: i) }) { i } (synchronous)"
        ) { n in
            await enterAndLeaveSynchronously(n)
        },
    ]

    /// The replacement every scope installs, made once so no case times an allocation of it.
    static let replacement = PeerService(id: 1)

    @RegistryActor
    static func read(_ operations: Int) -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            sum &+= appSingletons.peerService.id
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    @RegistryActor
    static func readLastOfTwenty(_ operations: Int) -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            sum &+= appSingletons[Filler20Key.self]
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    @RegistryActor
    static func readClient(_ operations: Int) -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= appSingletons.peerClient.fetch(index)
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    /// `loop` inside a scope that replaces both the service and one endpoint of the client; the scope is entered
    /// and left outside the timed loop.
    @RegistryActor
    static func overridden(_ operations: Int, _ loop: @RegistryActor (Int) -> UInt64) async -> UInt64 {
        await withSingletons({
            $0.peerService = identity(replacement)
            $0.peerClient.fetch = PeerClient.testFetch
        }) {
            loop(operations)
        }
    }

    /// A fresh replacement per scope, as a test makes its mock: the allocation is on both sides of the comparison.
    @RegistryActor
    static func enterAndLeave(_ operations: Int) async -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= await withSingletons({ $0.peerService = PeerService(id: index) }) { index }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    @RegistryActor
    static func enterAndLeaveClient(_ operations: Int) async -> UInt64 {
        let fetch = identity(PeerClient.testFetch)
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= await withSingletons({ $0.peerClient.fetch = fetch }) { index }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    /// The scope as a nonisolated test enters it: `configure` and the bookkeeping run on `RegistryActor`, so
    /// entering and leaving hop there and back.
    @concurrent
    static func enterAndLeaveNonisolated(_ operations: Int) async -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= await withSingletons({ $0.peerService = PeerService(id: index) }) { index }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    /// The synchronous `withSingletons`, on the actor, with a fresh replacement per scope.
    @RegistryActor
    static func enterAndLeaveSynchronously(_ operations: Int) -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= withSingletons({ $0.peerService = PeerService(id: index) }) { index }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    @concurrent
    static func readNonisolated(_ operations: Int) async -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            sum &+= await appSingletons.peerService.id
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    @concurrent
    static func readClientNonisolatedOverridden(_ operations: Int) async -> UInt64 {
        await withSingletons({ $0.peerClient.fetch = PeerClient.testFetch }) {
            var sum = identity(0)
            let start = MonotonicClock.now()
            for index in 0..<operations {
                let client = await appSingletons.peerClient
                sum &+= client.fetch(index)
            }
            let end = MonotonicClock.now()
            blackHole(sum)
            return end &- start
        }
    }
}
