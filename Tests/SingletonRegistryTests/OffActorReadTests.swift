import SingletonRegistry
import SingletonRegistryTesting
import Testing

/// A key whose accessor stops the process unless it runs on `RegistryActor`: what a read without the hop would do.
enum IsolationProbeKey: SingletonKey {
    static var liveValue: Int { 7 }
    static var testValue: Int { 7 }
}

extension AppSingletons {
    /// The probe's value, read only on the actor (a read beside it stops the process with this message).
    var isolationProbe: Int {
        get {
            RegistryActor.shared.preconditionIsolated("appSingletons.isolationProbe was read off RegistryActor")
            return self[IsolationProbeKey.self]
        }
        set { self[IsolationProbeKey.self] = newValue }
    }
}

/// A type on the actor with a `nonisolated init`, reading the probe through `@Singleton`, as a user's mockable type.
@RegistryActor
class ProbeReader {
    @Singleton(\.isolationProbe) var probe
    nonisolated init() {}
}

/// `appSingletons` read from code that is not on `RegistryActor` (CONCURRENCY.md, "Reading from any isolation").
@Suite struct OffActorReadTests {
    /// Every public spelling, from nonisolated code, a detached task, a scope and `@Singleton`, reads on the actor:
    /// the probe's accessor would stop the child process otherwise, and this test would fail naming itself.
    @Test func everySpellingReadsOnTheActor() async {
        await #expect(processExitsWith: .success) {
            func check(_ value: Int, _ expected: Int) { precondition(value == expected, "read \(value)") }
            check(await appSingletons.isolationProbe, 7)
            check(await Task.detached { await appSingletons.isolationProbe }.value, 7)
            await withSingletons({ $0.isolationProbe = 8 }) {
                check(await appSingletons.isolationProbe, 8)
                check(await Task { await appSingletons.isolationProbe }.value, 8)
                check(await appSingletons[IsolationProbeKey.self], 8)
                check(await ProbeReader().probe, 8)
            }
            check(await ProbeReader().probe, 7)
        }
    }

    /// A read from nonisolated code sees the scope of the task that makes it, with no `RegistryActor.run`.
    @Test func aNonisolatedReadSeesItsTasksScope() async {
        let seen = await withSingletons({ $0.clock = SuspendingClock() }) {
            await appSingletons.clock is SuspendingClock
        }
        #expect(seen)
        #expect(await appSingletons.clock is TestClock, "outside the scope: the test's own test value")
    }

    /// Nonisolated readers in parallel tasks, each in a scope of its own that it enters and leaves again and again,
    /// each see only their own value: under the thread sanitizer (CI), also no data race on the scope tables.
    @Test func parallelNonisolatedReadersSeeTheirOwnScopes() async {
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for reader in 1...8 {
                group.addTask {
                    var mismatches = 0
                    for round in 0..<50 {
                        let own = reader * 1_000 + round
                        await withSingletons({ $0.isolationProbe = own }) {
                            if await appSingletons.isolationProbe != own { mismatches += 1 }
                            let child = Task { await appSingletons.isolationProbe }
                            if await child.value != own { mismatches += 1 }
                        }
                        if await appSingletons.isolationProbe != 7 { mismatches += 1 }
                    }
                    return mismatches
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
