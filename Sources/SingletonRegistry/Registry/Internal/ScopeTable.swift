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
@usableFromInline
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
        var entries = Table<Entry>()
        var freeSlots = Table<Int>()
        var slotCount = 1
        var nextSerial: UInt64 = 1
        var count = 0
        var tokenLocal: Unmanaged<TaskLocal<UInt64>>? = nil
    }

    /// The table. A variable of trivial types with a constant initial value, so it is initialised statically and
    /// using it makes no lazy-initialisation check (`swift_once`), which every read would otherwise pay. Unchecked
    /// for exclusivity, which is sound because only ``RegistryActor`` touches it, synchronously, and no access to it
    /// is held across a call that could reach it again (CONCURRENCY.md, "The scope table").
    @exclusivity(unchecked) private static var state = State()

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

    /// Elements in memory the table allocates, reached by index, with a count of those in use: the scopes' entries by
    /// slot and the free slots (a stack). Its fields are of trivial types, so ``State``, which holds it, is
    /// initialised statically. A value, not an owner: copying one copies the pointer, so only ``State`` holds one.
    /// The memory is never freed, except what a growing table leaves behind.
    struct Table<Element> {
        /// The elements, `nil` until the first ``grow(toHold:filling:)`` or ``push(_:)``.
        private(set) var base: UnsafeMutablePointer<Element>?
        /// How many elements `base` has room for, all initialised when the table was grown with a filling.
        private(set) var capacity = 0
        /// How many elements are in use: a stack's height, or however the owner counts.
        var count = 0

        /// An empty table, with no memory.
        init() {}

        /// The element at `index`, which is below ``capacity``.
        subscript(index: Int) -> Element {
            get { base.unsafelyUnwrapped[index] }
            nonmutating set { base.unsafelyUnwrapped[index] = newValue }
        }

        /// Makes room for `index` (at least 16 elements, at least double), keeping the elements there are and setting
        /// the new ones to `empty`.
        mutating func grow(toHold index: Int, filling empty: Element) {
            let newCapacity = Swift.max(16, capacity * 2, index + 1)
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
            if let base { grown.moveInitialize(from: base, count: capacity) }
            (grown + capacity).initialize(repeating: empty, count: newCapacity - capacity)
            base?.deallocate()
            base = grown
            capacity = newCapacity
        }

        /// Puts `element` on top of a stack, growing it when full.
        mutating func push(_ element: Element) {
            if count == capacity {
                let newCapacity = Swift.max(16, capacity * 2)
                let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
                if let base {
                    grown.moveInitialize(from: base, count: count)
                    base.deallocate()
                }
                base = grown
                capacity = newCapacity
            }
            (base.unsafelyUnwrapped + count).initialize(to: element)
            count &+= 1
        }

        /// Takes the element on top of a stack, if any.
        mutating func pop() -> Element? {
            guard count != 0 else { return nil }
            count &-= 1
            return (base.unsafelyUnwrapped + count).move()
        }
    }
}

/// Entering and leaving the table from code that runs on ``RegistryActor`` but is isolated to it only
/// through an `isolated (any Actor)?` parameter (``withSingletons(_:isolation:operation:)`` called on the actor):
/// synchronous calls, where `await` would switch executors twice for each.
///
/// Each checks that `isolation` is ``RegistryActor/shared``; code isolated to an actor runs on that actor's
/// executor, so the actor's isolated function may run there synchronously, called through a function value whose
/// type has lost its `@RegistryActor`, as `MainActor.assumeIsolated` calls its operation (CONCURRENCY.md, "Entering
/// a scope on the actor").
extension ScopeTable {
    /// `SingletonScope.enter(configure)`, synchronously, from code isolated to `isolation`, the registry's actor; what
    /// `configure` threw, if it did, as a failure (thrown again by ``rethrow(_:from:)``).
    @usableFromInline
    static func enter(
        _ configure: @RegistryActor (AppSingletons) throws -> Void, isolation: isolated (any Actor)?
    ) -> Result<SingletonScope, any Error> {
        precondition(RegistryActor.isShared(isolation), "a scope entered synchronously off the registry's actor")
        typealias Configure = @RegistryActor (AppSingletons) throws -> Void
        var enter: @RegistryActor (Configure) throws -> SingletonScope = { try SingletonScope.enter($0) }
        // The compiler reabstracts `configure` for this call through a thunk it allocates: one allocation, against
        // the four executor switches of awaiting `enter` and `end`.
        let enterHere = withUnsafePointer(to: &enter) {
            UnsafeRawPointer($0).load(as: ((Configure) throws -> SingletonScope).self)
        }
        do {
            return .success(try enterHere(configure))
        } catch {
            return .failure(error)
        }
    }

    /// Throws `error`, which `configure` threw: a function of `configure`'s thrown type, so that a `rethrows`
    /// caller may call it.
    @inlinable
    nonisolated static func rethrow<Failure: Error>(
        _ error: any Error, from configure: @RegistryActor (AppSingletons) throws(Failure) -> Void
    ) throws(Failure) -> Never {
        throw error as! Failure
    }

    /// `scope.end()`, synchronously, from code isolated to `isolation`, the registry's actor.
    @usableFromInline
    static func end(_ scope: SingletonScope, isolation: isolated (any Actor)?) -> Bool {
        precondition(RegistryActor.isShared(isolation), "a scope left synchronously off the registry's actor")
        var end: @RegistryActor (SingletonScope) -> Bool = { $0.end() }
        let endHere = withUnsafePointer(to: &end) {
            UnsafeRawPointer($0).load(as: ((SingletonScope) -> Bool).self)
        }
        return endHere(scope)
    }
}
