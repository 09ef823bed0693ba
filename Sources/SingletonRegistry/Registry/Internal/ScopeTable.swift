/// The active override scopes: the one table a read looks a task's scope up in, and the one way a scope leaves it.
///
/// A task carries its scope as a plain integer in ``SingletonScope/tokenLocal``, `serial << 24 | slot`, so reading
/// it copies no reference; the slot gives the scope without hashing, and the serial tells the scope in the slot from
/// an earlier one that ended there. A scope is entered with ``reserveToken()`` and ``activate(_:)`` and leaves with
/// ``release(_:)``, always synchronously on ``RegistryActor``: so no actor job sees a scope end in its middle, and a
/// task that outlives its scope finds no entry for its token from the first job after the end.
///
/// Entries hold their scopes strongly, until released. A scope is never reused: a reference to one that has ended,
/// strong, weak or unowned, keeps naming that scope (CONCURRENCY.md, "The scope table").
@RegistryActor
enum ScopeTable {
    /// One slot: the token of the scope in it (0 where free) and that scope.
    struct Entry {
        var token: UInt64
        var scope: SingletonScope?
    }

    /// The entries by slot (grown, never freed), the free slots (a stack), how many slots were ever used (slot 0
    /// never holds a scope, so token 0 means "no scope"), the next serial, how many scopes are active (a read checks
    /// only this while none is), and `SingletonScope.tokenLocal`, unretained.
    struct State {
        var entries = RegistryTable<Entry>()
        var freeSlots = RegistryTable<Int>()
        var slotCount = 1
        var nextSerial: UInt64 = 1
        var count = 0
        var tokenLocal: Unmanaged<TaskLocal<UInt64>>? = nil
    }

    /// Its part of ``RegistryTables``.
    private static var state: State {
        _read { yield RegistryTables.state.scopes }
        _modify { yield &RegistryTables.state.scopes }
    }

    private static let slotBits: UInt64 = 24
    private static let slotMask: UInt64 = (1 << slotBits) - 1

    /// How many scopes are active.
    static var count: Int { state.count }

    /// A token for a scope about to be made: a free slot and a serial no other scope had.
    static func reserveToken() -> UInt64 {
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

    /// Makes `scope` active under its token.
    static func activate(_ scope: SingletonScope) {
        let slot = slot(of: scope.token)
        if state.tokenLocal == nil { state.tokenLocal = Unmanaged.passUnretained(SingletonScope.tokenLocal) }
        if slot >= state.entries.capacity { state.entries.grow(toHold: slot, filling: Entry(token: 0, scope: nil)) }
        state.entries[slot] = Entry(token: scope.token, scope: scope)
        state.count &+= 1
    }

    /// Frees `token`'s slot: its scope, if it was active, is not any more. The one way out of the table.
    static func release(_ token: UInt64) {
        let slot = slot(of: token)
        if slot < state.entries.capacity, state.entries[slot].token == token {
            state.entries[slot] = Entry(token: 0, scope: nil)
            state.count &-= 1
        }
        state.freeSlots.push(slot)
    }

    /// The entry of the calling task's active scope, `nil` outside every active scope: the reader borrows the scope
    /// in place (`entry.pointee.scope`), so a read retains nothing. The table holds the scope, and nothing can
    /// release it before the caller's synchronous job on the actor ends.
    @inline(__always)
    static func entryOfCurrentTask() -> UnsafeMutablePointer<Entry>? {
        guard state.count != 0, let entries = state.entries.base, let tokenLocal = state.tokenLocal else { return nil }
        let token = token(in: tokenLocal)
        let slot = Int(truncatingIfNeeded: token & slotMask)
        guard slot != 0, slot < state.entries.capacity, entries[slot].token == token, entries[slot].scope != nil
        else { return nil }
        return entries + slot
    }

    /// The active scope of the calling task, unretained; `nil` outside every active scope.
    static func scopeOfCurrentTask() -> Unmanaged<SingletonScope>? {
        guard let entry = entryOfCurrentTask() else { return nil }
        return Unmanaged.passUnretained(entry.pointee.scope.unsafelyUnwrapped)
    }

    /// The active scope of the calling task, retained; `nil` outside every active scope.
    static var currentScope: SingletonScope? { scopeOfCurrentTask()?.takeUnretainedValue() }

    /// The value of `local` for the current task, read without retaining `local`.
    ///
    /// Nonisolated, so that the closure it passes runs no dynamic isolation check (a closure written inside an
    /// isolated function is isolated too, and Swift 6 checks the executor on entry to one handed to code it cannot
    /// see into).
    @inline(__always)
    private nonisolated static func token(in local: Unmanaged<TaskLocal<UInt64>>) -> UInt64 {
        local._withUnsafeGuaranteedRef { $0.get() }
    }

    /// The active scope `token` names, or `nil` when it names none (no scope, or one that has ended).
    static func scope(for token: UInt64) -> SingletonScope? {
        let slot = slot(of: token)
        guard slot != 0, slot < state.entries.capacity, state.entries[slot].token == token else { return nil }
        return state.entries[slot].scope
    }

    /// The active scopes, oldest first.
    static var all: [SingletonScope] {
        guard state.slotCount > 1 else { return [] }
        return (1..<min(state.slotCount, state.entries.capacity)).compactMap { state.entries[$0].scope }
            .sorted { $0.token >> slotBits < $1.token >> slotBits }
    }

    private static func slot(of token: UInt64) -> Int { Int(truncatingIfNeeded: token & slotMask) }
}
