/// Whether each type of value seen so far conforms to ``ManagedSingleton``, so that the registry asks the runtime
/// once per type: a failed dynamic cast to a protocol costs more than the rest of leaving a scope.
///
/// The answers are kept in an open-addressing table hashed by the address of the type's metadata, the way
/// ``SingletonStorage`` finds a key: one multiplication and one comparison in the common case, where a `Dictionary`
/// would run `Hasher` and a dynamic exclusivity check on every scope's exit.
@RegistryActor
enum LifecycleConformance {
    /// The types asked about, `nil` where empty; a power of two at least twice `known`.
    @exclusivity(unchecked) private static var types = ContiguousArray<ObjectIdentifier?>(repeating: nil, count: 64)
    /// Whether the type in the same place of `types` conforms.
    @exclusivity(unchecked) private static var conforms = ContiguousArray<Bool>(repeating: false, count: 64)
    /// How many types `types` holds.
    @exclusivity(unchecked) private static var known = 0

    /// `value` as a lifecycle participant, when its dynamic type is one.
    static func lifecycle<Value>(of value: Value) -> (any ManagedSingleton)? {
        let type = ObjectIdentifier(Swift.type(of: value) as Any.Type)
        let slot = self.slot(of: type)
        if types[slot] == type {
            return conforms[slot] ? value as? any ManagedSingleton : nil
        }
        let lifecycle = value as? any ManagedSingleton
        types[slot] = type
        conforms[slot] = lifecycle != nil
        known += 1
        if known * 2 > types.count { rehash() }
        return lifecycle
    }

    /// The place of `type` in `types`, or the empty place where it would go.
    private static func slot(of type: ObjectIdentifier) -> Int {
        let mask = types.count &- 1
        var slot = Int(truncatingIfNeeded: SingletonStorage.hash(type) >> 32) & mask
        while let held = types[slot], held != type { slot = (slot &+ 1) & mask }
        return slot
    }

    /// Doubles the table, putting every known type in its new place.
    private static func rehash() {
        let old = zip(types, conforms).compactMap { type, conforming in type.map { ($0, conforming) } }
        types = ContiguousArray(repeating: nil, count: types.count * 2)
        conforms = ContiguousArray(repeating: false, count: types.count)
        for (type, conforming) in old {
            let slot = slot(of: type)
            types[slot] = type
            conforms[slot] = conforming
        }
    }
}
