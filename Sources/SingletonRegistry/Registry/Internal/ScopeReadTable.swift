/// What a read through ``appSingletons`` looks at inside a scope: one entry per slot of ``ActiveScopes``, with the
/// token of the scope in it and that scope's container. Entry 0 is never used: slot 0 holds no scope.
///
/// The entries are a ``RegistryTable``, so the lookup makes no lazy-initialisation check. Every change happens synchronously on ``RegistryActor``, as does every lookup (the
/// members of ``AppSingletons`` that call it are isolated, and the compiler hops to the actor before each).
@RegistryActor
enum ScopeReadTable {
    /// One slot's token (0 where free) and its scope, held as the container it is (``ActiveScopes`` finds its
    /// scopes here).
    struct Entry {
        var token: UInt64
        var singletons: AppSingletons?
    }

    /// The entries by slot (grown, never freed) and `SingletonScope.tokenLocal`, set when the first scope is
    /// activated.
    struct State {
        var entries = RegistryTable<Entry>()
        var tokenLocal: Unmanaged<TaskLocal<UInt64>>? = nil
    }

    /// Its part of ``RegistryTables``.
    private static var state: State {
        _read { yield RegistryTables.state.scopes }
        _modify { yield &RegistryTables.state.scopes }
    }

    /// The entry of the calling task's active scope, `nil` outside every active scope. Its container is borrowed
    /// in place by the caller, whose lookup releases nothing (`@_effects(releasenone)`), so the read retains
    /// nothing; the table holds the container until the scope is released, which cannot happen during the
    /// caller's synchronous read.
    @inline(__always)
    static func entryOfCurrentTask() -> UnsafeMutablePointer<Entry>? {
        guard ActiveScopes.count != 0, let entries = state.entries.base, let tokenLocal = state.tokenLocal else {
            return nil
        }
        let token = token(in: tokenLocal)
        let slot = Int(truncatingIfNeeded: token & ActiveScopes.slotMask)
        guard slot != 0, slot < state.entries.capacity, entries[slot].token == token,
            let singletons = entries[slot].singletons,
            !unsafeDowncast(singletons, to: SingletonScope.self).ended.load(ordering: .relaxed)
        else {
            return nil
        }
        return entries + slot
    }

    /// The container of the calling task's active scope, unretained; `nil` outside every active scope.
    static func containerOfCurrentTask() -> Unmanaged<AppSingletons>? {
        guard let entry = entryOfCurrentTask() else { return nil }
        return Unmanaged.passUnretained(entry.pointee.singletons.unsafelyUnwrapped)
    }

    /// The value of `local` for the current task, read without retaining `local`.
    ///
    /// Nonisolated, so that the closure it passes runs no dynamic isolation check: a closure written inside an
    /// isolated function is isolated too, and Swift 6 checks the executor on entry to such a closure handed to code
    /// it cannot see into (`swift_task_isCurrentExecutor`, measured at a third of a scope read's instructions).
    @inline(__always)
    private nonisolated static func token(in local: Unmanaged<TaskLocal<UInt64>>) -> UInt64 {
        local._withUnsafeGuaranteedRef { $0.get() }
    }

    /// Puts `scope`, active under `token`, and its container in `slot` (never 0), or frees `slot` when `scope` is
    /// `nil`.
    static func set(slot: Int, token: UInt64, scope: SingletonScope?) {
        precondition(slot != 0, "slot 0 holds no scope")
        if state.tokenLocal == nil { state.tokenLocal = Unmanaged.passUnretained(SingletonScope.tokenLocal) }
        if slot >= state.entries.capacity {
            state.entries.grow(toHold: slot, filling: Entry(token: 0, singletons: nil))
        }
        state.entries[slot] = Entry(token: token, singletons: scope)
    }

    /// The token of the scope in `slot`, 0 where none is (or the table has no such entry yet).
    static func token(in slot: Int) -> UInt64 {
        slot < state.entries.capacity ? state.entries[slot].token : 0
    }

    /// The scope in `slot`, if any.
    static func scope(in slot: Int) -> SingletonScope? {
        guard slot < state.entries.capacity, let singletons = state.entries[slot].singletons else { return nil }
        // Only `set(slot:token:scope:)` stores here, and it stores scopes.
        return unsafeDowncast(singletons, to: SingletonScope.self)
    }
}
