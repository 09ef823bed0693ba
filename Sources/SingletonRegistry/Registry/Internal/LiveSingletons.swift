/// The live value of every key read so far in the process, made on the first read and kept for the process's life.
///
/// Every container that holds a key's live value holds this one box, so the process-wide container, a container made
/// by hand and an override scope's container all see the same live instance.
@RegistryActor
enum LiveSingletons {
    private static var storage = SingletonStorage()
    /// The keys whose live value is being made, innermost last: a `liveValue` that reads its own key is a cycle.
    private static var making: [String] = []

    /// Whether a live value is being made: the reads it makes take live values (``AppSingletons``).
    static var isMaking: Bool { !making.isEmpty }

    /// The box of `Key`'s live value, made now if this is the first time the process asks for it.
    static func box<Key: SingletonKey>(for key: Key.Type) -> SingletonBox<Key> {
        let id = ObjectIdentifier(key)
        if let box = storage.box(for: id) as? SingletonBox<Key> { return box }
        if making.contains(Key.name) {
            let chain = (making + [Key.name]).joined(separator: " -> ")
            fatalError(
                "the liveValue of \(String(reflecting: Key.self)) reads appSingletons.\(Key.name) itself (\(chain)): "
                    + "a liveValue must not read its own key, directly or through others; read the other value in a "
                    + "method when it is needed, or name its key in `dependencies` so that it is started first")
        }
        making.append(Key.name)
        // Made outside every override scope: the reads it makes see no scope's replacement, and, while `making`
        // is not empty, no test's value.
        let value = SingletonScope.tokenLocal.withValue(0) { Key.liveValue }
        making.removeLast()
        let box = SingletonBox<Key>(value, isLive: true)
        storage.set(box)
        return box
    }
}
