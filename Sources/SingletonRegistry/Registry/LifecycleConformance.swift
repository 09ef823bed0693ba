/// Whether each type of value seen so far conforms to ``ManagedSingleton``, so that the registry asks the runtime
/// once per type: a failed dynamic cast to a protocol costs more than the rest of leaving a scope.
///
/// The answers are kept in an open-addressing table hashed by the address of the type's metadata, the way
/// ``SingletonStorage`` finds a key: one multiplication and one comparison in the common case, where a `Dictionary`
/// would run `Hasher` and a dynamic exclusivity check on every scope's exit. The table lives in memory this type
/// allocates, reached through variables of trivial type, so that asking makes no lazy-initialisation check
/// (`swift_once`), as ``ScopeReadTable`` does; only ``RegistryActor`` touches it, synchronously.
@RegistryActor
enum LifecycleConformance {
    /// One place of the table: a type asked about (`nil` where empty) and whether it conforms.
    private struct Place {
        var type: ObjectIdentifier?
        var conforms: Bool
    }

    /// The places, `nil` until the first question; a power of two at least twice `known`.
    @exclusivity(unchecked) private static var places: UnsafeMutablePointer<Place>? = nil
    /// How many places `places` has.
    @exclusivity(unchecked) private static var capacity = 0
    /// How many types the table holds.
    @exclusivity(unchecked) private static var known = 0

    /// Whether the values of the type identified by `type` conform to ``ManagedSingleton``: after the first
    /// question about a type, answered from the table; the first time, by casting `box`'s value, of that type.
    static func conforms(_ type: ObjectIdentifier, else box: AnySingletonBox) -> Bool {
        if capacity == 0 { grow() }
        let slot = self.slot(of: type)
        if let places, places[slot].type == type { return places[slot].conforms }
        let conforming = box.castsToLifecycle
        places.unsafelyUnwrapped[slot] = Place(type: type, conforms: conforming)
        known += 1
        if known * 2 > capacity { grow() }
        return conforming
    }

    /// The place of `type`, or the empty place where it would go.
    private static func slot(of type: ObjectIdentifier) -> Int {
        let places = places.unsafelyUnwrapped
        let mask = capacity &- 1
        var slot = Int(truncatingIfNeeded: SingletonStorage.hash(type) >> 32) & mask
        while let held = places[slot].type, held != type { slot = (slot &+ 1) & mask }
        return slot
    }

    /// Doubles the table (or makes its first 64 places), putting every known type in its new place.
    private static func grow() {
        let old = places
        let oldCapacity = capacity
        capacity = max(64, oldCapacity * 2)
        let grown = UnsafeMutablePointer<Place>.allocate(capacity: capacity)
        grown.initialize(repeating: Place(type: nil, conforms: false), count: capacity)
        places = grown
        guard let old else { return }
        for index in 0..<oldCapacity {
            if let type = old[index].type { grown[slot(of: type)] = old[index] }
        }
        old.deallocate()
    }
}
