/// The process-wide container, the one ``appSingletons`` returns outside every override scope.
@RegistryActor var processWideSingletons: AppSingletons {
    get { ScopeReadTable.processWide }
    set { ScopeReadTable.processWide = newValue }
}

/// The shared values, as code reaches them.
///
/// Inside ``withSingletons(_:isolation:operation:)`` (or a test using the `.singletons` trait) this is the
/// scope's container, for the scope's task and every child task and `Task {}` it starts; elsewhere it is the
/// process-wide container. Assigning replaces the process-wide container: simple, but not safe for tests that run
/// in parallel.
///
/// A scope's replacements last as long as the scope: a task that outlives it (a `Task {}` still running when
/// `withSingletons` returned) reads the process-wide values afterwards, like any other task. While no scope is
/// active at all, a read skips the task-local lookup.
@RegistryActor
public var appSingletons: AppSingletons {
    @inlinable _read {
        // Swift 6.3 compiles `await appSingletons` in code outside RegistryActor without the hop to the actor, so
        // this accessor would run beside the actor (CONCURRENCY.md, "Reading appSingletons from outside the actor").
        // Debug builds stop there; release builds check nothing. (`assertIsolated` would check in release builds
        // too: on Linux it is a call into the concurrency library, which decides by how that library was built.)
        #if DEBUG
            RegistryActor.shared.preconditionIsolated(
                "appSingletons was read outside RegistryActor: read it in @RegistryActor code or in RegistryActor.run")
        #endif
        let entries = ScopeReadTable.entries ?? ScopeReadTable.allocated()
        var slot = 0
        if ActiveScopes.count != 0 {
            let token = ScopeReadTable.currentToken()
            let tokenSlot = Int(truncatingIfNeeded: token & ActiveScopes.slotMask)
            if tokenSlot < ScopeReadTable.capacity, entries[tokenSlot].token == token { slot = tokenSlot }
        }
        yield entries[slot].singletons!
    }
    set { processWideSingletons = newValue }
}
