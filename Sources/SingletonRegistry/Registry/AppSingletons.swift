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
/// Not open: code outside the module cannot subclass it. Inside, an override scope (`SingletonScope`) is its own
/// container, a subclass, so that entering a scope makes one object instead of two; every member declared here is
/// `final`, so calls from other modules' inlined code are direct.
@RegistryActor
public class AppSingletons {
    /// The values this container holds itself: all of them for a container of no scope; for a scope's container,
    /// what the scope set (and live values first read through it), in front of the enclosing container.
    @exclusivity(unchecked) private final var storage = SingletonStorage()
    /// The container a scope's container stands in front of; `nil` for a container of no scope.
    final let enclosing: AppSingletons?
    /// Whether this is ``appSingletons``, whose members act on the calling task's scope's container.
    final let isProcessWide: Bool
    /// Whether this is ``appSingletons`` in a test process: its reads then look for the reading task's test first
    /// (``TestValues``), and so never take the fast path of a read of its own storage.
    final let servesTests: Bool
    /// Whether this is a scope's container in a test process: a read from it inside a test (`$0.x` in a configure
    /// closure) takes the test's values, never a live one, and so never takes the fast path either.
    final let readsAsTest: Bool

    /// The process-wide container, ``appSingletons``; nonisolated so that the global constant can be made on any
    /// thread.
    nonisolated init(processWide: Void) {
        enclosing = nil
        isProcessWide = true
        servesTests = TestValues.context != nil
        readsAsTest = false
    }

    /// Creates a container of its own that holds nothing yet, for code that starts and shuts down a set of values of
    /// its own. A key read from it that it does not hold reads as the calling task's override scope has it (inside a
    /// test with the `.singletons` trait, the test's replacement), and otherwise gives the key's live value, which
    /// the container then holds.
    public nonisolated init() {
        enclosing = nil
        isProcessWide = false
        servesTests = false
        readsAsTest = false
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

    /// A container for an override scope, in front of `enclosing`: what is set on it leaves `enclosing` unchanged,
    /// and what it does not hold it reads from `enclosing`. Making one copies nothing.
    init(inFrontOf enclosing: AppSingletons) {
        self.enclosing = enclosing
        isProcessWide = false
        servesTests = false
        // A test process's: what the process-wide container found when it was made (no lazy global to check).
        readsAsTest = enclosing.servesTests || enclosing.readsAsTest
    }

    /// The value under `key`: a replacement set on this container, or else the key's live value.
    ///
    /// Modules declare an accessor that calls this subscript; code reads the accessor. `accessor` names it in
    /// reports (the default, `#function`, is the accessor's name).
    @inlinable
    public final subscript<Key: SingletonKey>(key: Key.Type, accessor: StaticString = #function) -> Key.Value {
        get { Self.value(in: fastReadBox(ObjectIdentifier(key)) ?? slowReadBox(key, accessor: accessor), of: key) }
        set { replace(key, with: newValue) }
    }

    /// Puts `value` under `key` as a replacement of its live value.
    @inlinable
    final func replace<Key: SingletonKey>(_ key: Key.Type, with value: Key.Value) {
        store(SingletonBox<Key>(value, isLive: false))
    }

    /// Puts `box` under its key, in the container the caller acts on (``acting``), reporting a late startup value.
    @usableFromInline
    final func store(_ box: AnySingletonBox) {
        // A scope's container acts on itself, and only startup values of the process are checked for lateness.
        if enclosing != nil, !LateStartupValues.isPreparing { return hold(box) }
        LateStartupValues.checked(box, in: acting).hold(box)
    }

    /// Puts `box` in this container's own storage; in a scope's container (the only kind with an `enclosing`), a
    /// replacement with a lifecycle is noted for the scope's end.
    private final func hold(_ box: AnySingletonBox) {
        storage.set(box)
        guard enclosing != nil, !box.isLive, box.hasLifecycle else { return }
        unsafeDowncast(self, to: SingletonScope.self).noteReplacedLifecycle(box)
    }

    /// The container a member called on this one acts on: for ``appSingletons``, the container of the calling
    /// task's active scope, if it has one; else, in a test, the test's own container (so that a value a test sets
    /// outside every scope is its own); otherwise this one.
    final var acting: AppSingletons {
        guard isProcessWide else { return self }
        if let scoped = ScopeReadTable.containerOfCurrentTask() { return scoped.takeUnretainedValue() }
        if servesTests, let test = TestValues.context?.currentTest() { return TestValues.container(for: test) }
        return self
    }

    /// The fast path of a read: the box under the key with identifier `id`, when the acting container or those
    /// it stands in front of hold it and the read cannot have escaped an override scope; `nil` sends the read to
    /// ``slowReadBox(_:accessor:)``.
    ///
    /// It only looks: it releases nothing (`@_effects(releasenone)`, which lets the inlined read skip retaining
    /// the container around the call). Not generic and not inlinable, so that the lookup compiles inside this
    /// module, where the optimizer sees every access to `storage` and drops the dynamic exclusivity checks a read
    /// from another module would make.
    ///
    /// Unretained: the container's storage owns the box, and nothing can replace it before the caller, running
    /// synchronously on ``RegistryActor``, has copied the value out.
    @usableFromInline @_effects(releasenone)
    final func fastReadBox(_ id: ObjectIdentifier) -> Unmanaged<AnySingletonBox>? {
        guard enclosing == nil else { return readsAsTest ? nil : chainedBox(for: id) }
        if ActiveScopes.count == 0 { return servesTests ? nil : storage.unretainedBox(for: id) }
        guard isProcessWide, !servesTests, let entry = ScopeReadTable.entryOfCurrentTask() else { return nil }
        // Borrowed in place: `chainedBox` releases nothing, so the container needs no retain around the call. (Not
        // `Unmanaged._withUnsafeGuaranteedRef`: its closure would be isolated, and checked dynamically every read.)
        return entry.pointee.singletons.unsafelyUnwrapped.chainedBox(for: id)
    }

    /// The slow path of a read, when ``fastReadBox(_:)`` found nothing: the box under `key`, after noting the read
    /// if it escaped an override scope; where no container up to the process-wide one holds the key, the acting
    /// container is made to hold its live value first.
    @usableFromInline
    final func slowReadBox(_ key: any SingletonKey.Type, accessor: StaticString) -> Unmanaged<AnySingletonBox> {
        // Scopes ended off the actor keep the fast path away (`ActiveScopes.count`) until their slots are freed.
        ActiveScopes.releaseEnded()
        let id = ObjectIdentifier(key)
        // A live value being made reads live values, whoever asked for it: no test's value becomes part of it.
        if LiveSingletons.isMaking { return Unmanaged.passUnretained(appSingletons.liveContextBox(of: key)) }
        if readsAsTest, let test = TestValues.context?.currentTest() {
            return testReadBox(key, for: test, accessor: accessor)
        }
        if servesTests {
            // While a scope is configured (a test value made there reads another key), the read is that scope's.
            if let configuring = TestValues.configuring, let test = TestValues.context?.currentTest() {
                return configuring.testReadBox(key, for: test, accessor: accessor)
            }
            // In a test: a replacement or a value made for the test, in the task's scopes (found without asking the
            // test library, which costs more), else in the test's own container, else the test's value made now.
            let scoped = ScopeReadTable.containerOfCurrentTask()?.takeUnretainedValue()
            if let box = scoped?.chainedReplacement(for: id) { return box }
            // A task or thread that carries a test's scope but not the test (code run by `EscapedSingletons.yield`)
            // reads as that test.
            if let test = TestValues.context?.currentTest() ?? SingletonScope.current?.test {
                let container = scoped ?? TestValues.container(for: test)
                if let box = container.chainedReplacement(for: id) { return box }
                let name = Self.accessorName(accessor, of: key)
                if scoped == nil, ActiveScopes.count != 0 {
                    SingletonScope.noteTestRead(of: id, by: test, accessor: name)
                }
                return TestValues.box(of: key, for: test, in: SingletonScope.current, accessor: name)
            }
        }
        if servesTests, SingletonScope.token != 0, ScopeReadTable.containerOfCurrentTask() == nil {
            UnattributedEscapes.noteReadAfterScopeEnded(accessor: Self.accessorName(accessor, of: key))
        }
        let container = acting
        if container.enclosing == nil, ActiveScopes.count != 0 {
            SingletonScope.noteUnscopedRead(of: id, accessor: Self.accessorName(accessor, of: key))
        }
        if let box = container.chainedBox(for: id) { return box }
        // A container made by hand follows the rules of a scope: a key it does not hold reads as the calling task's
        // scope has it (a test's mock), and only where no container of the scope holds the key, live.
        if container.enclosing == nil, !container.isProcessWide, let scoped = ScopeReadTable.containerOfCurrentTask(),
            let box = scoped.takeUnretainedValue().chainedBox(for: id)
        {
            return box
        }
        return Unmanaged.passUnretained(container.holdLiveBox(of: key))
    }

    /// A read from a scope's container inside `test`: a replacement of its chain, of the task's scope or of the
    /// test's container, else the test's value (made in this scope while it is configured outside a test's scope,
    /// else where the test keeps its values); never a live value, so `$0.x.part = ...` modifies the test value.
    private final func testReadBox(
        _ key: any SingletonKey.Type, for test: SingletonTestIdentity, accessor: StaticString
    ) -> Unmanaged<AnySingletonBox> {
        let id = ObjectIdentifier(key)
        if let box = chainedReplacement(for: id) { return box }
        if enclosing == nil, let scoped = ScopeReadTable.containerOfCurrentTask()?.takeUnretainedValue(),
            let box = scoped.chainedReplacement(for: id)
        {
            return box
        }
        if let box = TestValues.existingContainer(for: test)?.chainedReplacement(for: id) { return box }
        let name = Self.accessorName(accessor, of: key)
        let current = SingletonScope.current
        if TestValues.configuring === self, current?.testScope == nil {
            let box = TestValues.makeBox(of: key, for: test, accessor: name)
            hold(box)
            return Unmanaged.passUnretained(box)
        }
        return TestValues.box(of: key, for: test, in: current, accessor: name)
    }

    /// The box a read gets while a live value is made: what this process-wide container holds, else the live value.
    private final func liveContextBox(of key: any SingletonKey.Type) -> AnySingletonBox {
        storage.box(for: ObjectIdentifier(key)) ?? holdLiveBox(of: key)
    }

    /// The name of the accessor that read `key`: `#function` names an accessor by its bare name (`weather`) and a
    /// function by its signature, where the key's name stands instead.
    private static func accessorName(_ accessor: StaticString, of key: any SingletonKey.Type) -> String {
        let name = "\(accessor)"
        return name.contains("(") ? key.name : name
    }

    /// The unretained box under `id` that is no live value, in this container or those it stands in front of, short
    /// of the process-wide container: what a test's read takes before its own values (what non-test code set
    /// process-wide is not the test's).
    private final func chainedReplacement(for id: ObjectIdentifier) -> Unmanaged<AnySingletonBox>? {
        if isProcessWide { return nil }
        if let box = storage.unretainedBox(for: id), !box.takeUnretainedValue().isLive { return box }
        return enclosing?.chainedReplacement(for: id)
    }

    /// The box this container holds itself under `id`.
    final func ownBox(for id: ObjectIdentifier) -> AnySingletonBox? {
        storage.box(for: id)
    }

    /// The unretained box under `id` in this container or those it stands in front of; it only looks, and releases
    /// nothing.
    @_effects(releasenone)
    private final func chainedBox(for id: ObjectIdentifier) -> Unmanaged<AnySingletonBox>? {
        if let box = storage.unretainedBox(for: id) { return box }
        return enclosing?.chainedBox(for: id)
    }

    /// The value in `box`, which holds `Key`'s, copied out without retaining the box.
    @inlinable
    nonisolated static func value<Key: SingletonKey>(in box: Unmanaged<AnySingletonBox>, of key: Key.Type) -> Key.Value
    {
        box._withUnsafeGuaranteedRef { unsafeDowncast($0, to: SingletonBox<Key>.self).value }
    }

    /// Makes this container hold `key`'s live value (made now if the process has none yet); returns its box.
    private final func holdLiveBox(of key: any SingletonKey.Type) -> AnySingletonBox {
        func hold<Key: SingletonKey>(_ key: Key.Type) -> AnySingletonBox {
            let box = LiveSingletons.box(for: key)
            storage.set(box)
            return box
        }
        return hold(key)
    }

    /// Makes this container hold each of `keys` (their live values, unless replaced), so that ``entries``,
    /// ``start()`` and ``shutdown()`` include them before anything reads them.
    public final func declare(_ keys: any SingletonKey.Type...) {
        let container = acting
        for key in keys where container.box(for: ObjectIdentifier(key)) == nil { _ = container.holdLiveBox(of: key) }
    }

    /// Puts `key`'s live value back under it, in place of a replacement: how code that set a value process-wide
    /// (`appSingletons.longTaskManager = mock`, outside every scope) undoes it.
    public final func restoreLiveValue<Key: SingletonKey>(of key: Key.Type) {
        let container = acting
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
    /// front of, read without recording an escape: the registry's bookkeeping.
    final func box(for id: ObjectIdentifier) -> AnySingletonBox? {
        storage.box(for: id) ?? enclosing?.box(for: id)
    }

    /// Makes this container hold nothing itself (a scope's, pooled).
    final func releaseOwnBoxes() { storage = SingletonStorage() }

    /// The boxes this container holds itself, in order (for a scope's container: what it set or read first).
    final var ownBoxes: ContiguousArray<AnySingletonBox> { storage.boxes }

}
