import Synchronization

/// The active override scopes, each in a slot that its tasks' task-local token names.
///
/// The token a task carries is a plain integer, `serial << 24 | slot`, so reading it copies no reference and
/// runs no generic value witness; the slot gives the scope without hashing; the serial tells a scope that has
/// ended (its slot free, or reused by a later scope) from a live one, so a task that outlives its scope reads the
/// process-wide values.
///
/// A slot's scope and container are kept in ``ScopeReadTable``'s entry of the same number, and the free slots in a
/// ``RegistryTable``, all in ``RegistryTables``.
@RegistryActor
enum ActiveScopes {
    /// The free slots (a stack: reused last-freed first), how many slots were ever used (slot 0, the process-wide
    /// container's and never a scope's, included), the serial of the next scope (0 is never used, so token 0 means
    /// "no scope") and how many scopes are active (a read checks only this while no scope is active).
    struct State {
        var freeSlots = RegistryTable<Int>()
        var slotCount = 1
        var nextSerial: UInt64 = 1
        var count = 0
    }

    /// Its part of ``RegistryTables``.
    private static var state: State {
        _read { yield RegistryTables.state.active }
        _modify { yield &RegistryTables.state.active }
    }

    /// How many scopes are active.
    static var count: Int { state.count }

    /// How many scopes ``SingletonScope/end()`` ended off the actor since ``releaseEnded()`` last looked: a hint
    /// that a slot holds a scope that has ended.
    private nonisolated static let endedCount = Atomic<Int>(0)

    private static let slotBits: UInt64 = 24
    static let slotMask: UInt64 = (1 << slotBits) - 1

    /// Notes that a scope was ended off the actor, for ``releaseEnded()``.
    nonisolated static func noteEnded() {
        endedCount.add(1, ordering: .releasing)
    }

    /// Releases the slots of the scopes that ended off the actor.
    static func releaseEnded() {
        guard endedCount.load(ordering: .relaxed) != 0, endedCount.exchange(0, ordering: .acquiring) != 0 else {
            return
        }
        for slot in 1..<state.slotCount {
            guard let scope = ScopeReadTable.scope(in: slot), scope.ended.load(ordering: .acquiring) else { continue }
            release(scope.token)
            // A scope with a lifecycle is shut down by its leaver, which holds it until then.
            if !scope.replacedLifecycle.load(ordering: .acquiring) { ScopePool.keep(scope) }
        }
    }

    /// A token for a scope about to be made: a free slot and a serial no other scope had.
    static func reserveToken() -> UInt64 {
        releaseEnded()
        let slot: Int
        if let free = state.freeSlots.pop() {
            slot = free
        } else {
            slot = state.slotCount
            precondition(UInt64(slot) <= slotMask, "more than \(slotMask) override scopes are active")
            state.slotCount += 1
        }
        defer { state.nextSerial &+= 1 }
        return state.nextSerial << slotBits | UInt64(slot)
    }

    /// Makes `scope` active under the token it was made with.
    static func activate(_ scope: SingletonScope) {
        ScopeReadTable.set(slot: slot(of: scope.token), token: scope.token, scope: scope)
        state.count &+= 1
    }

    /// Frees `token`'s slot: its scope, if it was active, is not any more.
    static func release(_ token: UInt64) {
        let slot = slot(of: token)
        if ScopeReadTable.token(in: slot) == token {
            ScopeReadTable.set(slot: slot, token: 0, scope: nil)
            state.count &-= 1
        }
        state.freeSlots.push(slot)
    }

    /// The active scope `token` names, or `nil` when it names none (no scope, or one that has ended).
    static func scope(for token: UInt64) -> SingletonScope? {
        let slot = slot(of: token)
        guard slot < state.slotCount, ScopeReadTable.token(in: slot) == token,
            let scope = ScopeReadTable.scope(in: slot),
            !scope.ended.load(ordering: .acquiring)
        else { return nil }
        return scope
    }

    /// The active scopes, oldest first.
    static var all: [SingletonScope] {
        releaseEnded()
        return (1..<state.slotCount).compactMap { ScopeReadTable.scope(in: $0) }
            .sorted { $0.token >> slotBits < $1.token >> slotBits }
    }

    private static func slot(of token: UInt64) -> Int { Int(truncatingIfNeeded: token & slotMask) }
}
