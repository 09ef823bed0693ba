// Compiled by scripts/check-hops to SIL, never built into a target: each function below is nonisolated and reads the
// registry through one public spelling. The check requires a hop to RegistryActor before every call into it.
import SingletonRegistry

enum ProbeKey: SingletonKey {
    static var liveValue: Int { 7 }
}

extension AppSingletons {
    var probe: Int {
        get { self[ProbeKey.self] }
        set { self[ProbeKey.self] = newValue }
    }
}

@RegistryActor
class ProbeReader {
    @Singleton(\.probe) var probe
    nonisolated init() {}
}

func probeAccessor() async -> Int { await appSingletons.probe }
func probeBuiltInManager() async -> Bool { await appSingletons.longTaskManager.isTaskDone }
func probeSubscript() async -> Int { await appSingletons[ProbeKey.self] }
func probeEntries() async -> [SingletonEntry] { await appSingletons.entries }
func probeHolds() async -> Bool { await appSingletons.holds(ProbeKey.self) }
func probeDeclare() async { await appSingletons.declare(ProbeKey.self) }
func probeSingletonWrapper() async -> Int { await ProbeReader().probe }
func probeDetached() async -> Int { await Task.detached { await appSingletons.probe }.value }
func probeScope() async -> Int { await withSingletons({ $0.probe = 8 }) { await appSingletons.probe } }

// The negative control: a `Current`-style computed global a user might write on top of the registry. Swift 6.3.1
// reads it with no hop (CONCURRENCY.md, "Reading from any isolation"); the check expects that, so that a compiler
// that changes it shows up.
@RegistryActor var currentProbe: Int { appSingletons.probe }
func controlComputedGlobal() async -> Int { await currentProbe }
