import SingletonRegistry
import Synchronization

/// A value tagged with the scope that set it (0: the process's live value), counting its shutdowns.
@RegistryActor
final class Tagged: ManagedSingleton {
    let scope: Int
    var shutdowns = 0
    nonisolated init(scope: Int) { self.scope = scope }
    func start() async throws {}
    func shutdown() async { shutdowns += 1 }
}

enum TaggedKey: SingletonKey {
    static var liveValue: Tagged { Tagged(scope: 0) }
}

/// What went wrong, counted across every task, on the actor (the thread sanitizer does not see `Mutex`'s lock).
@RegistryActor enum Record {
    static var failures: [String: Int] = [:]
    /// Every value a trial made, to count its shutdowns at the end.
    static var kept: [Tagged] = []
}

@RegistryActor func fail(_ what: String) {
    Record.failures[what, default: 0] += 1
}

/// Reads on the actor what a task of scope `own` sees: its own scope's value while the scope is active, and once
/// it has ended, never its value again nor any other scope's; never a value that has been shut down.
@RegistryActor
func check(own: Int, ended: Flag, wrote: Tagged?, started: Flag? = nil) {
    started?.value.store(true, ordering: .releasing)
    let endedBefore = ended.value.load(ordering: .acquiring)
    if let wrote {
        Record.kept.append(wrote)
        // Many stores, each read back in the same job: the scope's end, if it came inside this job, would fall
        // between a store and its read.
        for _ in 0..<64 {
            appSingletons[TaggedKey.self] = wrote
            if appSingletons[TaggedKey.self] !== wrote { fail("a job lost what it wrote") }
        }
    }
    let read = appSingletons[TaggedKey.self]
    if read.shutdowns != 0 { fail("a read was handed a value that was shut down") }
    // Positive tags are scopes' values; 0 and negative tags are process-wide values (a late store made after its
    // scope ended goes process-wide, as any store outside every scope does).
    if read.scope > 0 && read.scope != own { fail("a read got another scope's value") }
    if endedBefore && read.scope == own { fail("a task read its scope's value after the scope had ended") }
}

let rounds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 20_000

/// One scope entered from nonisolated code, whose tasks (one nested in a scope of its own, one that stores a value
/// of its own) outlive it; a weak reference to its container is kept and read after the end.
nonisolated func trial(_ id: Int) async {
    let ended = Flag()
    let value = Tagged(scope: id)
    await RegistryActor.run { Record.kept.append(value) }
    let weakly = WeakContainer()
    var tasks: [Task<Void, Never>] = []
    await withSingletons({
        $0[TaggedKey.self] = value
        weakly.set($0)
    }) {
        tasks.append(Task { await check(own: id, ended: ended, wrote: Tagged?.none) })
        tasks.append(
            Task {
                await withSingletons({ _ in }) {
                    await Task.yield()
                    await check(own: id, ended: ended, wrote: Tagged?.none)
                }
            })
        let started = Flag()
        tasks.append(
            Task {
                let late = Tagged(scope: -id)
                await check(own: id, ended: ended, wrote: late, started: started)
            })
        // Every other trial, the scope ends while the storing job runs (the end then falls inside that job, unless
        // ending waits for it); the others let the end and the job race freely.
        if id.isMultiple(of: 2) { while !started.value.load(ordering: .acquiring) { await Task.yield() } }
    }
    ended.value.store(true, ordering: .releasing)
    for task in tasks { await task.value }
    if await weakly.readsAnotherScope(than: id) { await fail("a kept reference read another scope's values") }
}

/// Whether a trial's scope has returned.
final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}

/// A weak reference to a scope's container.
@RegistryActor
final class WeakContainer: Sendable {
    weak var container: AppSingletons?
    nonisolated init() {}
    func set(_ container: AppSingletons) { self.container = container }
    func readsAnotherScope(than id: Int) -> Bool {
        guard let container else { return false }
        let scope = container[TaggedKey.self].scope
        return scope > 0 && scope != id
    }
}

// A store after its scope ended goes process-wide, after reads: expected here, so not printed.
await RegistryActor.run { RegistryWarnings.handler = { _ in } }
await withTaskGroup(of: Void.self) { group in
    for lane in 0..<4 {
        group.addTask {
            for round in 0..<rounds { await trial(1 + lane + 4 * round) }
        }
    }
}
// Each value a scope held is shut down once; a value stored after its scope ended went outside every scope.
let shutdowns = await RegistryActor.run { Record.kept.map(\.shutdowns) }
let twice = shutdowns.filter { $0 > 1 }.count
if twice != 0 { await fail("a value was shut down more than once (\(twice) values)") }
let report = await RegistryActor.run { Record.failures }
print("scope-race: \(rounds * 4) scopes, \(shutdowns.filter { $0 == 1 }.count) values shut down once")
let failed = report.sorted(by: { $0.key < $1.key }).map { "FAILED: \($0.key): \($0.value)" }
// A failure stops the process with its lines in the message, which reaches standard error unbuffered.
if !failed.isEmpty { fatalError("scope-race failed\n" + failed.joined(separator: "\n")) }
