import Dispatch
import Glibc
import HopBenchCore
import SingletonRegistry
import SingletonRegistryTesting

// A test process: this executable links SingletonRegistryTesting, so the registry reads as it reads under
// `swift test`, where no read gets a live value. It compares, in one run, a read inside a scope that replaced the key
// (`registry.read.inScope`) with a read inside a test's scope of a key the test did not replace, whose test value
// the test's scope holds (`registry.read.inTestScope`): the read every test makes.

/// The manager both cases read: a non-final class on the registry's actor, as users declare theirs.
@RegistryActor
class ScopedManager {
    nonisolated init() {}
}

enum ScopedManagerKey: SingletonKey {
    static var liveValue: ScopedManager { ScopedManager() }
    static var testValue: ScopedManager { ScopedManager() }
}

extension AppSingletons {
    var scopedManager: ScopedManager {
        get { self[ScopedManagerKey.self] }
        set { self[ScopedManagerKey.self] = newValue }
    }
}

enum TestScopeLoop {
    /// Times `operations` reads of `appSingletons.scopedManager`.
    @RegistryActor
    static func run(_ operations: Int) -> UInt64 {
        var sum = identity(0)
        let start = MonotonicClock.now()
        for _ in 0..<operations {
            sum &+= Int(bitPattern: ObjectIdentifier(appSingletons.scopedManager))
        }
        let end = MonotonicClock.now()
        blackHole(sum)
        return end &- start
    }
}

let cases = [
    BenchmarkCase(
        batched: "registry.read.inScope",
        summary: "a test process: appSingletons.scopedManager inside a withSingletons scope that replaced it"
    ) { operations in
        await withSingletons({ $0.scopedManager = identity(ScopedManager()) }) {
            await TestScopeLoop.run(operations)
        }
    },
    BenchmarkCase(
        batched: "registry.read.inTestScope",
        summary: "a test process: appSingletons.scopedManager inside a test's scope, read as its test value"
    ) { operations in
        let elapsed = try? await withTestSingletons(named: "bench", reportingIssues: { print("issue: \($0)") }) {
            _ = await TestScopeLoop.run(1)  // the first read makes the test value, held by the test's scope
            return await TestScopeLoop.run(operations)
        }
        return elapsed ?? 0
    },
]
let ratios = [
    RatioCheck(
        "registry.read.inTestScope <= 2 x registry.read.inScope",
        numerator: ["registry.read.inTestScope"],
        denominator: ["registry.read.inScope"],
        limit: 2,
        interleaved: true
    )
]
let arguments = Array(CommandLine.arguments.dropFirst())
Task.detached { exit(await HopBench.main(arguments: arguments, cases: cases, ratios: ratios)) }
if arguments.contains("--operations") {
    DispatchSemaphore(value: 0).wait()
}
dispatchMain()
