/// Whether each type of value seen so far conforms to ``ManagedSingleton``, so that the registry asks the runtime
/// once per type: a failed dynamic cast to a protocol costs more than the rest of leaving a scope.
///
/// The answers are kept in an open-addressing table hashed by the address of the type's metadata, the way
/// ``SingletonStorage`` finds a key: one multiplication and one comparison in the common case, where a `Dictionary`
/// would run `Hasher` and a dynamic exclusivity check. Only ``RegistryActor`` touches it, synchronously; it is an
/// array checked by index, so its one unchecked construct is the exclusivity of its static variable.
@RegistryActor
enum LifecycleConformance {
    /// One place of the table: a type asked about (`nil` where empty) and whether it conforms.
    struct Place {
        var type: ObjectIdentifier?
        var conforms: Bool
    }

    /// The places, a power of two at least twice `count`, the number of types asked about; `nil` until the first
    /// question, so that the table's initial value is a constant, set statically (an empty array would be made
    /// lazily, behind a `swift_once` on every question).
    struct Table {
        var places: ContiguousArray<Place>? = nil
        var count = 0
    }

    /// The table, unchecked for exclusivity, which is sound because only ``RegistryActor`` touches it,
    /// synchronously, and each access ends before any call (a slot is found before the place is written).
    @exclusivity(unchecked) private static var table = Table()

    /// Whether the values of the type identified by `type` conform to ``ManagedSingleton``: after the first
    /// question about a type, answered from the table; the first time, by casting `box`'s value, of that type.
    static func conforms(_ type: ObjectIdentifier, else box: AnySingletonBox) -> Bool {
        if table.places == nil { grow() }
        let slot = self.slot(of: type)
        if table.places![slot].type == type { return table.places![slot].conforms }
        let conforming = box.castsToLifecycle
        table.places![slot] = Place(type: type, conforms: conforming)
        table.count += 1
        if table.count * 2 > table.places!.count { grow() }
        return conforming
    }

    /// The place of `type`, or the empty place where it would go.
    @inline(__always)
    private static func slot(of type: ObjectIdentifier) -> Int {
        let mask = table.places!.count &- 1
        var slot = Int(truncatingIfNeeded: SingletonStorage.hash(type) >> 32) & mask
        while let held = table.places![slot].type, held != type { slot = (slot &+ 1) & mask }
        return slot
    }

    /// Doubles the table (64 places at first), placing again the types it holds.
    private static func grow() {
        let old = table.places ?? []
        table.places = ContiguousArray(
            repeating: Place(type: nil, conforms: false), count: max(64, old.count * 2))
        for place in old {
            guard let type = place.type else { continue }
            let slot = slot(of: type)
            table.places![slot] = place
        }
    }
}
