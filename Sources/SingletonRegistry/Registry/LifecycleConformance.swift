/// Whether each type of value seen so far conforms to ``ManagedSingleton``, so that the registry asks the runtime
/// once per type: a failed dynamic cast to a protocol costs more than the rest of leaving a scope.
///
/// The answers are kept in an open-addressing table hashed by the address of the type's metadata, the way
/// ``SingletonStorage`` finds a key: one multiplication and one comparison in the common case, where a `Dictionary`
/// would run `Hasher` and a dynamic exclusivity check on every scope's exit. The table is a ``RegistryTable``, so
/// asking makes no lazy-initialisation check (`swift_once`); only ``RegistryActor`` touches it, synchronously.
@RegistryActor
enum LifecycleConformance {
    /// One place of the table: a type asked about (`nil` where empty) and whether it conforms.
    struct Place {
        var type: ObjectIdentifier?
        var conforms: Bool
    }

    /// The places, a power of two at least twice `count`, the number of types asked about; empty until the first
    /// question. Its part of ``RegistryTables``.
    private static var places: RegistryTable<Place> {
        _read { yield RegistryTables.state.lifecycle }
        _modify { yield &RegistryTables.state.lifecycle }
    }

    /// Whether the values of the type identified by `type` conform to ``ManagedSingleton``: after the first
    /// question about a type, answered from the table; the first time, by casting `box`'s value, of that type.
    static func conforms(_ type: ObjectIdentifier, else box: AnySingletonBox) -> Bool {
        if places.capacity == 0 { grow() }
        let slot = self.slot(of: type)
        if places[slot].type == type { return places[slot].conforms }
        let conforming = box.castsToLifecycle
        places[slot] = Place(type: type, conforms: conforming)
        places.count += 1
        if places.count * 2 > places.capacity { grow() }
        return conforming
    }

    /// The place of `type`, or the empty place where it would go.
    private static func slot(of type: ObjectIdentifier) -> Int {
        let mask = places.capacity &- 1
        var slot = Int(truncatingIfNeeded: SingletonStorage.hash(type) >> 32) & mask
        while let held = places[slot].type, held != type { slot = (slot &+ 1) & mask }
        return slot
    }

    /// Doubles the table (64 places at first), placing again the types it holds.
    private static func grow() {
        var old = places
        places = RegistryTable()
        places.reset(capacity: max(64, old.capacity * 2), filling: Place(type: nil, conforms: false))
        places.count = old.count
        for index in 0..<old.capacity {
            if let type = old[index].type { places[slot(of: type)] = old[index] }
        }
        old.deallocate()
    }
}
