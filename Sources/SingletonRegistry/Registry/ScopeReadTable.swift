/// What a read of ``appSingletons`` looks at: one entry per slot of ``ActiveScopes``, with the token of the scope in
/// it and that scope's container, and in entry 0 the process-wide container.
///
/// The entries live in memory this type allocates, reached through a variable of trivial type, so the read's
/// inlined code reaches them without a lazy-initialisation check, and borrows the container it yields from its
/// entry instead of copying it. Every change happens synchronously on ``RegistryActor``, and no read is under way
/// then: a read yields its container only to the accessor of the key it reads (CONCURRENCY.md, "The open
/// registry").
@RegistryActor
@usableFromInline
enum ScopeReadTable {
    /// One slot's token (0 where free) and its container.
    @usableFromInline
    struct Entry {
        @usableFromInline var token: UInt64
        @usableFromInline var singletons: AppSingletons?
    }

    /// The entries, `nil` until the first read or scope; grown, never freed.
    @exclusivity(unchecked) @usableFromInline static var entries: UnsafeMutablePointer<Entry>? = nil
    /// How many entries `entries` has room for, all initialised.
    @exclusivity(unchecked) @usableFromInline static var capacity = 0
    /// `SingletonScope.tokenLocal`, set when the first scope is activated; `SingletonScope` owns it.
    @exclusivity(unchecked) @usableFromInline static var tokenLocal: Unmanaged<TaskLocal<UInt64>>? = nil

    /// The entries, allocated now with a new process-wide container in entry 0 if nothing has needed them yet.
    @usableFromInline
    static func allocated() -> UnsafeMutablePointer<Entry> {
        if let entries { return entries }
        grow(toHold: 0)
        entries.unsafelyUnwrapped[0].singletons = AppSingletons()
        return entries.unsafelyUnwrapped
    }

    /// The container outside every scope.
    static var processWide: AppSingletons {
        get { allocated()[0].singletons.unsafelyUnwrapped }
        set { allocated()[0].singletons = newValue }
    }

    /// The token the current task carries; called only while a scope is active, so after ``tokenLocal`` is set.
    @inlinable
    static func currentToken() -> UInt64 {
        token(in: tokenLocal.unsafelyUnwrapped)
    }

    /// The value of `local` for the current task, read without retaining `local`.
    @inlinable
    nonisolated static func token(in local: Unmanaged<TaskLocal<UInt64>>) -> UInt64 {
        local._withUnsafeGuaranteedRef { $0.get() }
    }

    /// Names `singletons` as the container of the scope `token` in `slot` (never 0), or frees `slot` when it is
    /// `nil`.
    static func set(slot: Int, token: UInt64, singletons: AppSingletons?) {
        precondition(slot != 0, "entry 0 is the process-wide container's")
        if tokenLocal == nil { tokenLocal = Unmanaged.passUnretained(SingletonScope.tokenLocal) }
        _ = allocated()
        if slot >= capacity { grow(toHold: slot) }
        entries.unsafelyUnwrapped[slot] = Entry(token: token, singletons: singletons)
    }

    /// Makes room for an entry at `slot`, keeping the entries there are and freeing the new ones.
    private static func grow(toHold slot: Int) {
        let newCapacity = max(16, capacity * 2, slot + 1)
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: newCapacity)
        if let entries { grown.moveInitialize(from: entries, count: capacity) }
        (grown + capacity).initialize(repeating: Entry(token: 0, singletons: nil), count: newCapacity - capacity)
        entries?.deallocate()
        entries = grown
        capacity = newCapacity
    }
}
