/// The active override scopes, each in a slot that its tasks' task-local token names.
///
/// The token a task carries is a plain integer, `serial << 24 | slot`, so reading it copies no reference and
/// runs no generic value witness; the slot gives the scope without hashing; the serial tells a scope that has
/// ended (its slot free, or reused by a later scope) from a live one, so a task that outlives its scope reads the
/// process-wide values.
///
/// Every variable here is unchecked for exclusivity, like every hot-path variable of the registry: only
/// ``RegistryActor`` touches them, synchronously, and no access to one is ever held across a call that could reach
/// it again (CONCURRENCY.md, "The open registry").
@RegistryActor
enum ActiveScopes {
    /// One slot: the token of the scope in it (0 where free) and the scope. A read finds the scope's container in
    /// ``ScopeReadTable`` instead, in an entry of the same number.
    private struct Slot {
        var token: UInt64 = 0
        var scope: SingletonScope?
    }

    /// Slot 0 holds no scope: its entry in ``ScopeReadTable`` is the process-wide container's.
    @exclusivity(unchecked) private static var slots: ContiguousArray<Slot> = [Slot()]
    /// Free slots, reused last-freed first.
    @exclusivity(unchecked) private static var freeSlots: ContiguousArray<Int> = []
    /// The serial of the next scope; 0 is never used, so token 0 means "no scope".
    @exclusivity(unchecked) private static var nextSerial: UInt64 = 1
    /// How many scopes are active; a read checks only this while no scope is active.
    @exclusivity(unchecked) private(set) static var count = 0

    private static let slotBits: UInt64 = 24
    static let slotMask: UInt64 = (1 << slotBits) - 1

    /// A token for a scope about to be made: a free slot and a serial no other scope had.
    static func reserveToken() -> UInt64 {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = slots.count
            precondition(UInt64(slot) <= slotMask, "more than \(slotMask) override scopes are active")
            slots.append(Slot())
        }
        defer { nextSerial += 1 }
        return nextSerial << slotBits | UInt64(slot)
    }

    /// Makes `scope` active under the token it was made with.
    static func activate(_ scope: SingletonScope) {
        let slot = slot(of: scope.token)
        slots[slot] = Slot(token: scope.token, scope: scope)
        ScopeReadTable.set(slot: slot, token: scope.token, singletons: scope.singletons)
        count += 1
    }

    /// Frees `token`'s slot: its scope, if it was active, is not any more.
    static func release(_ token: UInt64) {
        let slot = slot(of: token)
        if slots[slot].token == token {
            slots[slot] = Slot()
            ScopeReadTable.set(slot: slot, token: 0, singletons: nil)
            count -= 1
        }
        freeSlots.append(slot)
    }

    /// The active scope `token` names, or `nil` when it names none (no scope, or one that has ended).
    static func scope(for token: UInt64) -> SingletonScope? {
        let slot = slot(of: token)
        guard slot < slots.count, slots[slot].token == token else { return nil }
        return slots[slot].scope
    }

    /// The active scopes, oldest first.
    static var all: [SingletonScope] {
        slots.compactMap(\.scope).sorted { $0.token >> slotBits < $1.token >> slotBits }
    }

    private static func slot(of token: UInt64) -> Int { Int(truncatingIfNeeded: token & slotMask) }
}
