import Synchronization

/// One active override scope: the container its task tree sees (itself), what it replaced, and what escaped it.
///
/// A scope is its own container, a subclass of ``AppSingletons``, so that entering a scope allocates one object for
/// both.
@RegistryActor
@usableFromInline
package final class SingletonScope: AppSingletons {
    /// The token of the current task's scope (``ActiveScopes``), inherited by child tasks and `Task {}`; `0`
    /// outside every scope. A `TaskLocal` object rather than the `@TaskLocal` wrapper, so that the inlinable
    /// ``withSingletons(_:isolation:operation:)`` can bind it.
    @usableFromInline nonisolated static let tokenLocal = TaskLocal<UInt64>(wrappedValue: 0)

    /// The token of the current task's scope; `0` outside every scope.
    static var token: UInt64 { tokenLocal.get() }

    /// The active scope of the current task, if any; while no scope is active, known without reading the
    /// task-local.
    static var current: SingletonScope? { ActiveScopes.count == 0 ? nil : ActiveScopes.scope(for: token) }

    /// Decides whether a read with no scope of its own counts as escaped; the testing library installs one.
    ///
    /// `nil` (the default) reports nothing, so production code outside every scope reads the process-wide
    /// values silently. The testing library answers "yes" only for reads made outside every test's task tree.
    package static var isEscapedRead: (@Sendable () -> Bool)?

    /// The container this scope's task tree sees: the scope itself.
    var singletons: AppSingletons { self }
    /// The name its tasks carry in ``token``: set on the actor when the scope is entered, and read by its enterer
    /// in any isolation (an atomic, so that reading it needs no hop).
    @usableFromInline nonisolated var token: UInt64 { tokenStorage.load(ordering: .relaxed) }
    private nonisolated let tokenStorage: Atomic<UInt64>
    /// The scope this one was entered in, if any.
    private let enclosingScope: SingletonScope?
    /// Whether this scope is a test's (the `.singletons` trait's, for one test case): it holds the values the test
    /// reads without replacing them, made from their keys' test values, and shuts them down when it ends.
    package var holdsTestValues: Bool { testRecord?.holdsTestValues ?? false }

    /// Makes this scope hold the values its test reads without replacing them.
    package func markHoldsTestValues() { testRecord?.holdsTestValues = true }
    /// The nearest scope, this one or one it was entered in, that holds its test's values.
    var testScope: SingletonScope? { holdsTestValues ? self : enclosingScope?.testScope }
    /// The names of the keys this scope replaced, in the order it set them: what its container holds itself that
    /// is no live value (a live value first read inside the scope is held too, and replaces nothing).
    package var replaced: [String] {
        var names: [String] = []
        for box in singletons.ownBoxes where !box.isLive && !box.madeForTest { names.append(box.name) }
        return names
    }

    /// The names of the keys its test read without replacing them, each made from its test value, in the order
    /// they were first read.
    package var readWithoutReplacing: [String] {
        var names: [String] = []
        for box in singletons.ownBoxes where box.madeForTest { names.append(box.name) }
        return names
    }

    /// Whether the scope has ended: set by ``end()``, which a caller off ``RegistryActor`` leaves it with. A scope
    /// that has ended is no task's scope, although ``ActiveScopes`` keeps its slot until it next runs
    /// (``ActiveScopes/releaseEnded()``).
    nonisolated let ended = Atomic<Bool>(false)
    /// Whether the scope holds a replaced value that has a lifecycle, which its end shuts down.
    nonisolated let replacedLifecycle = Atomic<Bool>(false)

    /// What a scope entered in a test process knows of its test; `nil` elsewhere, so that a scope outside tests
    /// makes and frees none of it.
    @exclusivity(unchecked) private var testRecord: SingletonTestRecord?

    /// Escaped reads attributed to this scope's task tree, oldest first (at most ``maxEscapesKept``).
    package var escapes: [EscapedRead] { testRecord?.escapes ?? [] }
    /// How many escaped reads were attributed to this scope's task tree, including those not kept.
    package var escapeCount: Int { testRecord?.escapeCount ?? 0 }
    /// The test whose task entered this scope, if any: escaped reads that carry it are attributed to this scope.
    package var test: SingletonTestIdentity? { testRecord?.test }
    /// Where a report about this scope goes in the user's code (a `SourceLocation`, set by the testing library).
    package var reportLocation: (any Sendable)? {
        get { testRecord?.reportLocation }
        set { testRecord?.reportLocation = newValue }
    }
    /// The number of escaped reads a scope keeps; later ones are only counted.
    package static let maxEscapesKept = 16

    private init(parent: AppSingletons, enclosing: SingletonScope?, token: UInt64) {
        enclosingScope = enclosing
        tokenStorage = Atomic(token)
        let inTestProcess = parent.servesTests || parent.readsAsTest
        testRecord = inTestProcess ? SingletonTestRecord(test: TestValues.context?.currentTest()) : nil
        super.init(inFrontOf: parent)
    }

    /// Whether this scope is its task tree's outermost: its container stands in front of ``appSingletons``.
    var isOutermost: Bool { enclosingScope == nil }

    /// Makes this scope, ended and referenced by nothing else, hold nothing, for ``ScopePool``.
    func clearForReuse() {
        releaseOwnBoxes()
        testRecord = nil
        ended.store(false, ordering: .relaxed)
        replacedLifecycle.store(false, ordering: .relaxed)
    }

    /// Makes this pooled scope the scope of `token`, entered now.
    private func reuse(token: UInt64) {
        tokenStorage.store(token, ordering: .relaxed)
        if readsAsTest { testRecord = SingletonTestRecord(test: TestValues.context?.currentTest()) }
    }

    /// The outermost scope of this scope's task tree: the one escapes of the tree are recorded on.
    private var root: SingletonScope {
        var root = self
        while let enclosing = root.enclosingScope { root = enclosing }
        return root
    }

    /// Whether any scope is active in the process.
    package static var anyActive: Bool {
        ActiveScopes.releaseEnded()
        return ActiveScopes.count != 0
    }

    /// The scope of the calling task, if it runs inside ``withSingletons(_:isolation:operation:)``.
    package static var ofCurrentTask: SingletonScope? { current }

    /// Creates and activates a scope whose container stands in front of the current one and is then configured.
    @usableFromInline
    static func enter(_ configure: @RegistryActor (AppSingletons) throws -> Void) rethrows -> SingletonScope {
        let enclosing = current
        let parent = enclosing ?? appSingletons
        let token = ActiveScopes.reserveToken()
        let scope: SingletonScope
        if enclosing == nil, let pooled = ScopePool.take() {
            pooled.reuse(token: token)
            scope = pooled
        } else {
            scope = SingletonScope(parent: parent, enclosing: enclosing, token: token)
        }
        // In a test process, the values `configure` makes (a test value that reads another key) read what it has
        // set so far: the scope is not active until it returns.
        let outerConfiguring = scope.readsAsTest ? TestValues.beginConfiguring(scope) : nil
        defer { if scope.readsAsTest { TestValues.endConfiguring(restoring: outerConfiguring) } }
        do {
            try configure(scope)
        } catch {
            ActiveScopes.release(token)
            throw error
        }
        ActiveScopes.activate(scope)
        return scope
    }

    /// Deactivates the scope, and tells whether it replaced a value that has a lifecycle: synchronous, so that
    /// leaving a scope that has nothing to shut down costs no asynchronous call.
    @usableFromInline
    func deactivate() -> Bool {
        ActiveScopes.release(token)
        return replacedLifecycle.load(ordering: .sequentiallyConsistent)
    }

    /// Ends the scope from code off ``RegistryActor``, without a hop: no task reads through it any more, and the
    /// actor releases its slot the next time it enters or looks for a scope. Tells whether it replaced a value that
    /// has a lifecycle, which the caller then shuts down (``deactivate()`` and ``shutDownReplaced()``).
    @usableFromInline
    nonisolated func end() -> Bool {
        ended.store(true, ordering: .sequentiallyConsistent)
        ActiveScopes.noteEnded()
        return replacedLifecycle.load(ordering: .sequentiallyConsistent)
    }

    /// Notes that the scope holds `box`, a replacement that has a lifecycle. Stored after ``end()`` found nothing to
    /// shut down (by a task of the scope that outlived it), `box` is shut down here: each side writes its flag
    /// before it reads the other's, so at least one of them sees both.
    func noteReplacedLifecycle(_ box: AnySingletonBox) {
        replacedLifecycle.store(true, ordering: .sequentiallyConsistent)
        guard ended.load(ordering: .sequentiallyConsistent), let lifecycle = box.lifecycle else { return }
        Task { await lifecycle.shutdown() }
    }

    /// Shuts down the values this scope replaced that have a lifecycle, in reverse order, then the values it made
    /// for its test, in reverse order.
    @usableFromInline
    func shutDownReplaced() async {
        let boxes = singletons.ownBoxes.reversed()
        for box in boxes where !box.isLive && !box.madeForTest { await box.lifecycle?.shutdown() }
        // The values made for the test after what replaced them, which may use them (a replaced manager's clock).
        for box in boxes where box.madeForTest { await box.lifecycle?.shutdown() }
    }

    /// Leaves `scope` on the actor: deactivates it and returns it if it replaced a value with a lifecycle, for
    /// the caller to shut down (``shutDownReplaced()``), or else pools it (``ScopePool``) and returns `nil`.
    static func leave(_ scope: consuming SingletonScope) -> SingletonScope? {
        if scope.deactivate() { return scope }
        ScopePool.keep(scope)
        return nil
    }

    /// Leaves `scope`, entered by the synchronous ``withSingletons(_:operation:)``, as ``leave(_:)`` does; what it
    /// replaced with a lifecycle is shut down in a task, since the caller cannot wait.
    @usableFromInline
    static func leaveSynchronously(_ scope: consuming SingletonScope) {
        guard let replaced = leave(scope) else { return }
        Task { await replaced.shutDownReplaced() }
    }

    /// The active scopes that replaced the key with identifier `id`, and the key's name.
    private static func scopesReplacing(_ id: ObjectIdentifier) -> (scopes: [SingletonScope], name: String?) {
        var scopes: [SingletonScope] = []
        var name: String?
        for scope in ActiveScopes.all {
            for box in scope.singletons.ownBoxes where box.id == id && !box.isLive && !box.madeForTest {
                scopes.append(scope)
                name = box.name
            }
        }
        return (scopes, name)
    }

    /// Records a read of the key with identifier `id` by a task of `test` that runs in none of its scopes, if a
    /// scope of that test replaced the key: the task carries the test (Swift Testing's `Test.current`) but lost its
    /// scope, so the read escaped that test's scope and is attributed to it, whatever other tests run beside it.
    static func noteTestRead(
        of id: ObjectIdentifier, by test: SingletonTestIdentity, accessor: @autoclosure () -> String
    ) {
        guard isEscapedRead != nil else { return }
        let (scopes, name) = scopesReplacing(id)
        guard let name, let scope = scopes.first(where: { $0.test == test }) else { return }
        scope.root.noteEscape(EscapedRead(keyName: name, accessor: accessor()))
    }

    /// Records `read` as an escape of this scope's task tree.
    private func noteEscape(_ read: EscapedRead) {
        guard let testRecord else { return }
        testRecord.escapeCount += 1
        if testRecord.escapes.count < Self.maxEscapesKept { testRecord.escapes.append(read) }
    }

    /// Notes a read of the key with identifier `id`, through the accessor named `accessor` (worked out only for a
    /// read it notes), from a task of no scope and no test, if it escaped an active scope.
    ///
    /// Nothing the task carries names the test it came from, and whether other tests run beside it is no evidence
    /// either, so the read is blamed on no test: it is reported once for the run (``UnattributedEscapes``), however
    /// many scopes replaced the key.
    static func noteUnscopedRead(of id: ObjectIdentifier, accessor: @autoclosure () -> String) {
        guard current == nil, let isEscapedRead, isEscapedRead() else { return }
        let (scopes, name) = scopesReplacing(id)
        guard let name, let first = scopes.first else { return }
        var tests: [String] = []
        for scope in scopes {
            if let test = scope.root.test?.name, !tests.contains(test) { tests.append(test) }
        }
        let read = EscapedRead(keyName: name, accessor: accessor())
        UnattributedEscapes.note(read, replacedBy: tests, reportLocation: first.root.reportLocation)
    }
}
