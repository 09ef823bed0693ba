/// The active override scopes, each in a slot that its tasks' task-local token names.
///
/// The token a task carries is a plain integer, `serial << 24 | slot`, so reading it copies no reference and
/// runs no generic value witness; the slot gives the scope without hashing; the serial tells a scope that has
/// ended (its slot free, or reused by a later scope) from a live one, so a task that outlives its scope reads the
/// process-wide values.
@RegistryActor
enum ActiveScopes {
    /// The scopes by slot; `nil` where the slot is free.
    ///
    /// Unchecked for exclusivity, like every hot-path variable of the registry: only ``RegistryActor`` touches it,
    /// synchronously, and no access to it is ever held across a call that could reach it again.
    @exclusivity(unchecked) private static var slots: ContiguousArray<SingletonScope?> = []
    /// The token of the scope in each slot (0 where free), and its container: what a read needs, kept apart
    /// from the scope so that a read touches no scope's reference count.
    @exclusivity(unchecked) private static var tokens: ContiguousArray<UInt64> = []
    @exclusivity(unchecked) private static var containers: ContiguousArray<AppSingletons?> = []
    /// Free slots, reused last-freed first.
    private static var freeSlots: [Int] = []
    /// The serial of the next scope; 0 is never used, so token 0 means "no scope".
    private static var nextSerial: UInt64 = 1
    /// How many scopes are active; a read checks only this while no scope is active.
    @exclusivity(unchecked) private(set) static var count = 0

    private static let slotBits: UInt64 = 24
    private static let slotMask: UInt64 = (1 << slotBits) - 1

    /// A token for a scope about to be made: a free slot and a serial no other scope had.
    static func reserveToken() -> UInt64 {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = slots.count
            precondition(UInt64(slot) <= slotMask, "more than \(slotMask) override scopes are active")
            slots.append(nil)
            tokens.append(0)
            containers.append(nil)
        }
        defer { nextSerial += 1 }
        return nextSerial << slotBits | UInt64(slot)
    }

    /// Makes `scope` active under the token it was made with.
    static func activate(_ scope: SingletonScope) {
        let slot = slot(of: scope.token)
        slots[slot] = scope
        tokens[slot] = scope.token
        containers[slot] = scope.singletons
        count += 1
    }

    /// Frees `token`'s slot: its scope, if it was active, is not any more.
    static func release(_ token: UInt64) {
        let slot = slot(of: token)
        if tokens[slot] == token {
            slots[slot] = nil
            tokens[slot] = 0
            containers[slot] = nil
            count -= 1
        }
        freeSlots.append(slot)
    }

    /// The active scope `token` names, or `nil` when it names none (no scope, or one that has ended).
    static func scope(for token: UInt64) -> SingletonScope? {
        let slot = slot(of: token)
        guard slot < tokens.count, tokens[slot] == token else { return nil }
        return slots[slot]
    }

    /// The container of the active scope `token` names, or `nil` when it names none.
    static func singletons(for token: UInt64) -> AppSingletons? {
        let slot = slot(of: token)
        guard slot < tokens.count, tokens[slot] == token else { return nil }
        return containers[slot]
    }

    /// The active scopes, oldest first.
    static var all: [SingletonScope] {
        slots.compactMap { $0 }.sorted { $0.token >> slotBits < $1.token >> slotBits }
    }

    private static func slot(of token: UInt64) -> Int { Int(truncatingIfNeeded: token & slotMask) }
}
