import SingletonRegistry
import Testing

/// `appSingletons` read from outside `RegistryActor` (CONCURRENCY.md, "Reading `appSingletons` from outside the
/// actor").
@Suite struct OffActorReadTests {
    /// Swift 6.3 reads `await appSingletons` without the hop to the actor; the accessor's check stops such a read in a
    /// debug build, so it cannot race. Should a compiler hop there, the read succeeds and this test says so: the
    /// check and the advice to use `RegistryActor.run` can then go.
    @Test func awaitAppSingletonsOutsideTheActorStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            _ = await appSingletons.clock
        }
    }

    /// The way to read it from outside the actor: `RegistryActor.run` is a call, and calls hop; the read sees the
    /// scope of the task that runs it.
    @Test func registryActorRunReadsTheScopeOfTheCallingTask() async {
        let seen = await withSingletons({ $0.clock = SuspendingClock() }) {
            await RegistryActor.run { appSingletons.clock is SuspendingClock }
        }
        #expect(seen)
        #expect(await RegistryActor.run { appSingletons.clock is SuspendingClock } == false)
    }
}
