/// The process's shared values, one per declared ``SingletonKey``, isolated to ``RegistryActor``.
///
/// Code reaches them through the constant ``appSingletons`` and the accessors that each module declares on this
/// type (`appSingletons.longTaskManager`). A key's live value is made on its first read. Tests replace values for
/// one task tree with ``withSingletons(_:isolation:operation:)`` or the `.singletons` trait of
/// `SingletonRegistryTesting`, which run safely in parallel; code on the actor outside every scope can also set a
/// value process-wide (`appSingletons.longTaskManager = mock`).
///
/// A container holds the keys that were read from it, set on it or named to ``declare(_:)``; ``entries``,
/// ``start()`` and ``shutdown()`` cover those. Through ``appSingletons``, each member acts on the container of the
/// calling task's scope, or on the process-wide one outside every scope.
///
/// In a test process (one that links `SingletonRegistryTesting`) no read gets a live value: a key nothing replaced
/// reads as the key's test value, made for the reading test, or once for the run when the reading code carries no
/// test (a detached task, a thread, a callback).
///
/// Not open: code outside the module cannot subclass it. An override scope's container (`SingletonScope`) is a
/// subclass inside the module, so that entering a scope makes one object instead of two.
@RegistryActor
public class AppSingletons {
    /// The values this container holds itself; for a scope's container, what the scope set, in front of `enclosing`.
    @exclusivity(unchecked) private final var storage = SingletonStorage()
    /// The container a scope's container stands in front of; `nil` for every other kind.
    final let enclosing: AppSingletons?
    /// What this container is.
    @usableFromInline final let kind: ContainerKind
    /// Whether this is a scope's container whose scope has ended: its values are then no one's, and every chain
    /// that passes through it skips them.
    final var hasEnded = false

    /// The process-wide container, ``appSingletons``; nonisolated so that the global constant can be made on any
    /// thread.
    nonisolated init(processWide: Void) {
        enclosing = nil
        kind = .processWide
    }

    /// Creates a container of its own that holds nothing yet, for code that starts and shuts down a set of values of
    /// its own. A key read from it that it does not hold reads as the calling task's override scope has it; failing
    /// that, the container comes to hold the key's live value (in a test process, the key's test value).
    public nonisolated init() {
        enclosing = nil
        kind = .standalone
    }

    /// Creates a container of its own and lets `configure` replace values on it, before anyone reads it.
    ///
    /// ```swift
    /// let singletons = AppSingletons { $0.longTaskManager = RecordingLongTaskManager() }
    /// try await singletons.start()
    /// ```
    public convenience init(_ configure: (AppSingletons) throws -> Void) rethrows {
        self.init()
        try configure(self)
    }

    /// A scope's container, in front of `enclosing`: what is set on it leaves `enclosing` unchanged, and what it
    /// does not hold it reads from `enclosing`. Making one copies nothing.
    init(inFrontOf enclosing: AppSingletons) {
        self.enclosing = enclosing
        kind = .scope
    }

    /// The value under `key`: a replacement set on this container, or else the key's live value.
    ///
    /// Modules declare an accessor that calls this subscript; code reads the accessor. `accessor` names it in
    /// reports (the default, `#function`, is the accessor's name).
    @inlinable
    public final subscript<Key: SingletonKey>(key: Key.Type, accessor: StaticString = #function) -> Key.Value {
        get { Self.value(in: fastReadBox(ObjectIdentifier(key)) ?? slowReadBox(key, accessor: accessor), of: key) }
        set { store(SingletonBox<Key>(newValue, isLive: false)) }
    }

    /// Puts `box` under its key, in the container the caller acts on (``acting``), reporting a late startup value.
    @usableFromInline
    final func store(_ box: AnySingletonBox) {
        let container = acting
        guard !container.hasEnded else { return SingletonScope.refuseLateStore(box) }
        guard container.kind == .processWide || LateStartupValues.isPreparing else { return container.hold(box) }
        LateStartupValues.check(box, in: container)
        container.hold(box)
    }

    /// Puts `box` in this container's own storage.
    final func hold(_ box: AnySingletonBox) {
        storage.set(box)
        didHold(box)
    }

    /// Called after this container came to hold `box`; a scope notes the values it must shut down.
    func didHold(_ box: AnySingletonBox) {}

    /// The container a member called on this one acts on: for ``appSingletons``, the container of the calling
    /// task's active scope, if it has one; else, in a test process, the test's own container (or the run's); else
    /// this one.
    final var acting: AppSingletons {
        guard kind == .processWide else { return self }
        if let scope = ScopeTable.scopeOfCurrentTask() { return scope.takeUnretainedValue() }
        guard RegistryContext.isTestProcess else { return self }
        return RegistryContext.readsLive ? RegistryContext.liveRoot : TestReads.containerOutsideScopes()
    }

    /// The fast path of a read: the box under the key with identifier `id` in the acting container's chain, when it
    /// holds one; `nil` sends the read to ``slowReadBox(_:accessor:)``. A test process takes the same path (its
    /// process-wide container holds nothing, so a key a test did not replace goes the slow way once).
    ///
    /// It only looks: it releases nothing (`@_effects(releasenone)`, which lets the inlined read skip retaining the
    /// container around the call). Not generic and not inlinable, so that the lookup compiles inside this module,
    /// where the optimizer sees every access to `storage` and drops the dynamic exclusivity checks.
    ///
    /// Unretained: the container's storage owns the box, and nothing can replace it before the caller, running
    /// synchronously on ``RegistryActor``, has copied the value out.
    @usableFromInline @_effects(releasenone)
    final func fastReadBox(_ id: ObjectIdentifier) -> Unmanaged<AnySingletonBox>? {
        guard kind == .processWide else { return chainedBox(for: id) }
        if ScopeTable.count == 0 { return unretainedBox(for: id) }
        guard let entry = ScopeTable.entryOfCurrentTask() else { return unretainedBox(for: id) }
        // Borrowed in place: `chainedBox` releases nothing, and the table holds the scope for this job. (Not
        // `Unmanaged._withUnsafeGuaranteedRef`: its closure would be isolated, and checked dynamically every read.)
        return entry.pointee.scope.unsafelyUnwrapped.chainedBox(for: id)
    }

    /// The slow path of a read, when ``fastReadBox(_:)`` found nothing: in a test process, ``TestReads``; in a live
    /// one, the task's scope for a container made by hand, else the key's live value, made now if need be and held
    /// where the chain ends.
    @usableFromInline
    final func slowReadBox(_ key: any SingletonKey.Type, accessor: StaticString) -> Unmanaged<AnySingletonBox> {
        // The box is held by a container, which keeps it past this call.
        if RegistryContext.isTest {
            return Unmanaged.passUnretained(TestReads.box(of: key, readFrom: self, accessor: accessor))
        }
        let id = ObjectIdentifier(key)
        // A live value being made reads live values, whoever asked for it: no scope's value becomes part of it.
        let liveRoot = RegistryContext.liveRoot
        if LiveSingletons.isMaking {
            if let box = liveRoot.unretainedBox(for: id) { return box }
            return Unmanaged.passUnretained(liveRoot.holdLiveBox(of: key))
        }
        let container = acting
        if let box = container.chainedBox(for: id) { return box }
        // A container made by hand follows the rules of a scope: a key it does not hold reads as the calling task's
        // scope has it, and only where no container of the scope holds the key, live.
        if container.kind == .standalone, let scope = ScopeTable.scopeOfCurrentTask(),
            let box = scope.takeUnretainedValue().chainedBox(for: id)
        {
            return box
        }
        let root = container.root.kind == .processWide ? liveRoot : container.root
        return Unmanaged.passUnretained(root.holdLiveBox(of: key))
    }

    /// The container at the end of this one's chain: ``appSingletons`` for a scope's, itself for the others.
    final var root: AppSingletons { enclosing?.root ?? self }

    /// The unretained box under `id` in this container or those it stands in front of, skipping the values of
    /// scopes that have ended; it only looks, and releases nothing.
    @_effects(releasenone)
    final func chainedBox(for id: ObjectIdentifier) -> Unmanaged<AnySingletonBox>? {
        if !hasEnded, let box = unretainedBox(for: id) { return box }
        return enclosing?.chainedBox(for: id)
    }

    /// The box this container holds itself under `id`, unretained: its storage owns the box until a store replaces
    /// it, which cannot happen before the caller, synchronous on ``RegistryActor``, is done with it.
    @inline(__always)
    private final func unretainedBox(for id: ObjectIdentifier) -> Unmanaged<AnySingletonBox>? {
        guard let box = storage.box(for: id) else { return nil }
        return Unmanaged.passUnretained(box)
    }

    /// The value in `box`, which holds `Key`'s, copied out without retaining the box.
    @inlinable
    nonisolated static func value<Key: SingletonKey>(in box: Unmanaged<AnySingletonBox>, of key: Key.Type) -> Key.Value
    {
        box._withUnsafeGuaranteedRef { unsafeDowncast($0, to: SingletonBox<Key>.self).value }
    }

    /// Makes this container hold `key`'s live value (made now if the process has none yet); returns its box.
    final func holdLiveBox(of key: any SingletonKey.Type) -> AnySingletonBox {
        func hold<Key: SingletonKey>(_ key: Key.Type) -> AnySingletonBox {
            let box = LiveSingletons.box(for: key)
            storage.set(box)
            return box
        }
        return hold(key)
    }

    /// Makes this container hold each of `keys` (their live values, unless replaced; in a test process, their test
    /// values), so that ``entries``, ``start()`` and ``shutdown()`` include them before anything reads them.
    public final func declare(_ keys: any SingletonKey.Type...) {
        let container = acting
        for key in keys where container.box(for: ObjectIdentifier(key)) == nil {
            if RegistryContext.isTest {
                _ = TestReads.box(of: key, readFrom: container, accessor: "declare")
            } else {
                _ = container.holdLiveBox(of: key)
            }
        }
    }

    /// Puts `key`'s live value back under it, in place of a replacement: how code that set a value process-wide
    /// (`appSingletons.longTaskManager = mock`, outside every scope) undoes it. In a test process, the key's test
    /// value for the acting container's test comes back instead, on the next read.
    public final func restoreLiveValue<Key: SingletonKey>(of key: Key.Type) {
        let container = acting
        if RegistryContext.isTest { return container.storage.remove(ObjectIdentifier(key)) }
        container.storage.set(LiveSingletons.box(for: key))
    }

    /// Whether this container holds `key`, live or replaced.
    public final func holds(_ key: any SingletonKey.Type) -> Bool {
        acting.box(for: ObjectIdentifier(key)) != nil
    }

    /// Every key this container holds, in the order it came to hold them.
    public final var entries: [SingletonEntry] {
        acting.boxes.map { SingletonEntry(name: $0.name, isLive: $0.isLive) }
    }

    /// The box under the key with identifier `id` in this container (not the acting one) or those it stands in
    /// front of: the registry's bookkeeping.
    final func box(for id: ObjectIdentifier) -> AnySingletonBox? {
        chainedBox(for: id)?.takeUnretainedValue()
    }

    /// The box this container holds itself under `id`.
    final func ownBox(for id: ObjectIdentifier) -> AnySingletonBox? {
        storage.box(for: id)
    }

    /// The boxes this container holds itself, in order (for a scope's container: what it set or read first).
    final var ownBoxes: ContiguousArray<AnySingletonBox> { storage.boxes }
}
