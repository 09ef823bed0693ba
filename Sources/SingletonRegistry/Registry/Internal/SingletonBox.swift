/// One value held under a key, with what the registry needs to know about it without knowing its type.
///
/// A box is immutable: replacing a value puts a new box under the key. So two containers that hold the same box
/// hold the same value, which is how an override scope tells what it replaced.
///
/// Not isolated: its stored properties are constants, and a read copies the value out of it in code that must
/// not pay for a dynamic isolation check (the container that holds the box is what ``RegistryActor`` protects).
/// The key's name and dependencies, and whether the value has a lifecycle, are asked on demand, on the actor, so
/// that making a box (every override) costs one allocation and nothing else.
@usableFromInline
class AnySingletonBox {
    /// `ObjectIdentifier` of the key type, the storage's lookup key.
    @usableFromInline let id: ObjectIdentifier
    /// Whether the value is the key's live value rather than a replacement.
    @usableFromInline let isLive: Bool
    /// Whether the value is a test's own, made from the key's test value when the test read it without replacing
    /// it (`isLive` is then `false`: it is shut down with the test's scope, like a replacement).
    let madeForTest: Bool
    /// `ObjectIdentifier` of the value's dynamic type, found where the box is made (the key's value type there,
    /// unless the value is an instance of a subclass): what ``hasLifecycle`` asks ``LifecycleConformance`` about.
    @usableFromInline let valueType: ObjectIdentifier

    @usableFromInline
    init(id: ObjectIdentifier, valueType: ObjectIdentifier, isLive: Bool, madeForTest: Bool = false) {
        self.id = id
        self.valueType = valueType
        self.isLive = isLive
        self.madeForTest = madeForTest
    }

    /// The key's ``SingletonKey/name``.
    @RegistryActor var name: String { fatalError("a SingletonBox overrides name") }
    /// The key's ``SingletonKey/dependencies``.
    @RegistryActor var dependencies: [any SingletonKey.Type] { fatalError("a SingletonBox overrides dependencies") }
    /// The value as a lifecycle participant, when it is one.
    @RegistryActor var lifecycle: (any ManagedSingleton)? { fatalError("a SingletonBox overrides lifecycle") }
    /// Whether the value is a lifecycle participant, when its dynamic type is one: asked of the runtime once per
    /// type, and answered from ``LifecycleConformance``'s table after that.
    @RegistryActor var castsToLifecycle: Bool { fatalError("a SingletonBox overrides castsToLifecycle") }
    /// Whether the value is a lifecycle participant: ``lifecycle`` `!= nil`, answered without a cast.
    @RegistryActor final var hasLifecycle: Bool { LifecycleConformance.conforms(valueType, else: self) }
}

/// A box of a value of `Key`.
///
/// Only its initialiser makes one, and it is generic over the key, so the box stored under
/// `ObjectIdentifier(Key.self)` is always a `SingletonBox<Key>`: that is what lets a read downcast it unchecked.
@usableFromInline
final class SingletonBox<Key: SingletonKey>: AnySingletonBox {
    /// The value.
    @usableFromInline let value: Key.Value

    /// A box of `value`, made for a test when `madeForTest`.
    @inlinable
    init(_ value: Key.Value, isLive: Bool, madeForTest: Bool = false) {
        self.value = value
        super.init(
            id: ObjectIdentifier(Key.self), valueType: ObjectIdentifier(type(of: value) as Any.Type), isLive: isLive,
            madeForTest: madeForTest)
    }

    @RegistryActor override var name: String { Key.name }
    @RegistryActor override var dependencies: [any SingletonKey.Type] { Key.dependencies }
    @RegistryActor override var lifecycle: (any ManagedSingleton)? {
        hasLifecycle ? value as? any ManagedSingleton : nil
    }
    @RegistryActor override var castsToLifecycle: Bool { value is any ManagedSingleton }
}
