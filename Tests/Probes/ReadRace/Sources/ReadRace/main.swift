import SingletonRegistry

/// A key of the program's own, declared as a user declares one.
enum CounterKey: SingletonKey {
    static var liveValue: Int { 0 }
}

extension AppSingletons {
    var counter: Int {
        get { self[CounterKey.self] }
        set { self[CounterKey.self] = newValue }
    }
}

/// A type on the actor with a `nonisolated init`, reading through `@Singleton`.
@RegistryActor
class Reader {
    @Singleton(\.counter) var counter
    nonisolated init() {}
}

let rounds = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 2_000

/// Every public spelling of a read, from nonisolated code; returns how many gave another value than `expected`.
func readEverySpelling(expecting expected: Int) async -> Int {
    var wrong = 0
    if await appSingletons.counter != expected { wrong += 1 }
    if await appSingletons[CounterKey.self] != expected { wrong += 1 }
    if await Reader().counter != expected { wrong += 1 }
    if await appSingletons.holds(CounterKey.self) == false { wrong += 1 }
    _ = await appSingletons.entries
    _ = await appSingletons.longTaskManager.isTaskDone
    return wrong
}

/// Runs the readers and the scopes side by side; returns how many reads gave another value than expected.
nonisolated func race(rounds: Int) async -> Int {
    await withTaskGroup(of: Int.self) { group in
        // Readers outside every scope, including detached tasks, see the process-wide value.
        for _ in 0..<4 {
            group.addTask {
                var wrong = 0
                for _ in 0..<rounds {
                    wrong += await readEverySpelling(expecting: 0)
                    wrong += await Task.detached { await readEverySpelling(expecting: 0) }.value
                }
                return wrong
            }
        }
        // Tasks that enter and leave scopes of their own, and read inside them.
        for scope in 1...2 {
            group.addTask {
                var wrong = 0
                for round in 0..<rounds {
                    let own = scope * 1_000_000 + round
                    wrong += await withSingletons({ $0.counter = own }) {
                        await readEverySpelling(expecting: own)
                    }
                }
                return wrong
            }
        }
        return await group.reduce(0, +)
    }
}

let wrong = await race(rounds: rounds)
print("read-race: \(rounds) rounds, \(wrong) reads of another value")
if wrong != 0 { fatalError("read-race: \(wrong) reads saw another task's value") }
