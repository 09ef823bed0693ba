import Dependencies
import HopBenchCore

/// swift-dependencies' side: `@Dependency` reads and `withDependencies` scopes. It has no isolation of its own, so
/// every loop runs where the case body runs, in nonisolated code on the cooperative pool; its "nonisolated" reads
/// are the same operation as its plain ones, measured again in the same rounds.
enum DependenciesPeerCases {
    /// The cases, in the order of ``PeerOperation/all``, then the synchronous scope.
    static let all: [BenchmarkCase] = [
        PeerOperation.read.batched(.dependencies, "@Dependency(\\.peerService) read, no override") { n in
            read(n)
        },
        PeerOperation.readOverridden.batched(
            .dependencies, "@Dependency(\\.peerService) read inside withDependencies replacing it"
        ) { n in
            await overridden(n, read)
        },
        PeerOperation.scope.batched(
            .dependencies, "await withDependencies { $0.peerService = PeerService(id: i) } operation: { i } (async)"
        ) { n in
            await enterAndLeave(n)
        },
        PeerOperation.scopeNonisolated.batched(
            .dependencies, "nonisolated async: await withDependencies { $0.peerService = ... } (as deps.scope)"
        ) { n in
            await enterAndLeave(n)
        },
        PeerOperation.readTwentyKeys.batched(.dependencies, "@Dependency(Filler20Dependency.self), 20 keys cached") {
            n in
            blackHole(FillerKeys.readAllDependencies())
            return readLastOfTwenty(n)
        },
        PeerOperation.readNonisolated.batched(
            .dependencies, "nonisolated async: @Dependency(\\.peerService) read (no isolation to cross)"
        ) { n in
            read(n)
        },
        PeerOperation.closuresRead.batched(.dependencies, "@Dependency(\\.peerClient) read, fetch(i) called") { n in
            readClient(n)
        },
        PeerOperation.closuresReadOverridden.batched(
            .dependencies, "peerClient.fetch(i) inside withDependencies { $0.peerClient.fetch = ... }"
        ) { n in
            await overridden(n, readClient)
        },
        PeerOperation.closuresScope.batched(
            .dependencies, "await withDependencies { $0.peerClient.fetch = ... }, entered and left"
        ) { n in
            await enterAndLeaveClient(n)
        },
        PeerOperation.closuresReadNonisolated.batched(
            .dependencies, "nonisolated async, inside withDependencies { $0.peerClient.fetch = ... }: read, call"
        ) { n in
            await overridden(n, readClient)
        },
        BenchmarkCase(
            batched: "deps.scope.sync",
            summary: "withDependencies { $0.peerService = PeerService(id: i) } operation: { i } (synchronous)"
        ) { n in
            enterAndLeaveSynchronously(n)
        },
    ]

    static func read(_ operations: Int) -> UInt64 {
        let reader = identity(DependencyReader())
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            sum &+= reader.service.id
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    static func readLastOfTwenty(_ operations: Int) -> UInt64 {
        let reader = identity(DependencyReader())
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            sum &+= reader.filler20
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    static func readClient(_ operations: Int) -> UInt64 {
        let reader = identity(DependencyReader())
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= reader.client.fetch(index)
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    /// `loop` inside a scope that replaces the service and one endpoint of the client; the scope is entered and
    /// left outside the timed loop.
    @concurrent
    static func overridden(_ operations: Int, _ loop: (Int) -> UInt64) async -> UInt64 {
        await withDependencies {
            $0.peerService = identity(RegistryPeerCases.replacement)
            $0.peerClient.fetch = PeerClient.testFetch
        } operation: { () async in
            loop(operations)
        }
    }

    /// A fresh replacement per scope, as ``RegistryPeerCases/enterAndLeave(_:)`` makes.
    @concurrent
    static func enterAndLeave(_ operations: Int) async -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= await withDependencies {
                $0.peerService = PeerService(id: index)
            } operation: { () async in
                index
            }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    @concurrent
    static func enterAndLeaveClient(_ operations: Int) async -> UInt64 {
        let fetch = identity(PeerClient.testFetch)
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= await withDependencies {
                $0.peerClient.fetch = fetch
            } operation: { () async in
                index
            }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }

    static func enterAndLeaveSynchronously(_ operations: Int) -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for index in 0..<operations {
            sum &+= withDependencies {
                $0.peerService = PeerService(id: index)
            } operation: {
                index
            }
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }
}
