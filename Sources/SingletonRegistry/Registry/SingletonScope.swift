/// One override scope: the container its task tree sees (itself), the values it must shut down, and, in a test
/// process, what it knows of its test.
///
/// A scope is its own container, a subclass of ``AppSingletons``, so that entering a scope allocates one object for
/// both. It is entered and ended on ``RegistryActor``, synchronously (``enter(_:)``, ``end()``), through
/// ``ScopeTable``; once ended, no chain reads its values and it holds no new ones, and it is never reused.
@RegistryActor
@usableFromInline
package final class SingletonScope: AppSingletons {
    /// The token of the current task's scope (``ScopeTable``), inherited by child tasks and `Task {}`; `0` outside
    /// every scope. A `TaskLocal` object rather than the `@TaskLocal` wrapper, so that the inlinable
    /// ``withSingletons(_:isolation:operation:)`` can bind it.
    @usableFromInline nonisolated static let tokenLocal = TaskLocal<UInt64>(wrappedValue: 0)

    /// In a test process, the test that code run by ``EscapedSingletons/yield(_:)`` carries (what Swift Testing's
    /// `Test.current` cannot carry to a thread); `nil` elsewhere.
    nonisolated static let escapedTestLocal = TaskLocal<SingletonTestIdentity?>(wrappedValue: nil)

    /// The token of the current task's scope; `0` outside every scope.
    static var token: UInt64 { tokenLocal.get() }

    /// The active scope of the current task, if any.
    static var current: SingletonScope? { ScopeTable.count == 0 ? nil : ScopeTable.scope(for: token) }

    /// Decides whether a read with no scope of its own counts as escaped; the testing library installs one.
    ///
    /// `nil` (the default) reports nothing. The testing library answers "yes" only for reads made outside every
    /// test's task tree.
    package static var isEscapedRead: (@Sendable () -> Bool)?

    /// The name its tasks carry in ``tokenLocal``.
    @usableFromInline nonisolated let token: UInt64
    /// The scope this one was entered in, if any.
    let enclosingScope: SingletonScope?
    /// The values with a lifecycle the scope came to hold, in order, each to be shut down once when it ends.
    private var lifecycleBoxes: [AnySingletonBox] = []
    /// Whether `lifecycleBoxes` holds any: what ``end()`` asks, without the dynamic exclusivity check that reading
    /// the array costs (its `append` may release a buffer, so the optimizer keeps every access to it checked).
    private var holdsLifecycleBoxes = false

    /// What a scope entered in a test process knows of its test; `nil` elsewhere. A constant, so that setting it
    /// costs no dynamic exclusivity check.
    let testRecord: SingletonTestRecord?

    private init(parent: AppSingletons, enclosing: SingletonScope?, token: UInt64) {
        enclosingScope = enclosing
        self.token = token
        testRecord = RegistryContext.isTest ? SingletonTestRecord(test: TestValues.context?.currentTest()) : nil
        super.init(inFrontOf: parent)
    }

    /// Whether this scope is a test's (the `.singletons` trait's, for one test case): it holds the values the test
    /// reads without replacing them, made from their keys' test values, and shuts them down when it ends.
    package var holdsTestValues: Bool { testRecord?.holdsTestValues ?? false }

    /// Makes this scope hold the values its test reads without replacing them.
    package func markHoldsTestValues() { testRecord?.holdsTestValues = true }

    /// The nearest scope that has not ended, this one or one it was entered in, that holds its test's values.
    var testScope: SingletonScope? {
        holdsTestValues && !hasEnded ? self : enclosingScope?.testScope
    }

    /// The names of the keys this scope replaced, in the order it set them.
    package var replaced: [String] {
        ownBoxes.filter { !$0.isLive && !$0.madeForTest }.map(\.name)
    }

    /// The names of the keys its test read without replacing them, each made from its test value, in the order
    /// they were first read.
    package var readWithoutReplacing: [String] {
        ownBoxes.filter(\.madeForTest).map(\.name)
    }

    /// The test whose task entered this scope, if any: escaped reads that carry it are attributed to this scope.
    package var test: SingletonTestIdentity? { testRecord?.test }

    /// The outermost scope of this scope's task tree: the one escapes of the tree are recorded on.
    var outermost: SingletonScope {
        var root = self
        while let enclosing = root.enclosingScope { root = enclosing }
        return root
    }

    /// Whether any scope is active in the process.
    package static var anyActive: Bool { ScopeTable.count != 0 }

    /// The scope of the calling task, if it runs inside ``withSingletons(_:isolation:operation:)``.
    package static var ofCurrentTask: SingletonScope? { current }

    /// Creates and activates a scope whose container stands in front of the current one and is then configured.
    @usableFromInline
    static func enter(_ configure: @RegistryActor (AppSingletons) throws -> Void) rethrows -> SingletonScope {
        let enclosing = current
        let token = ScopeTable.reserveToken()
        let scope = SingletonScope(parent: enclosing ?? appSingletons, enclosing: enclosing, token: token)
        // In a test process, the values `configure` makes (a test value that reads another key) read what it has
        // set so far: the scope is not active until it returns.
        let outerConfiguring = RegistryContext.isTest ? TestValues.beginConfiguring(scope) : nil
        defer { if RegistryContext.isTest { TestValues.endConfiguring(restoring: outerConfiguring) } }
        do {
            if RegistryContext.isTest {
                // Active while configured, for this task alone (no other task has its token yet): a test value made
                // here reads the scope, through the same lookup as every read.
                ScopeTable.activate(scope)
                try tokenLocal.withValue(token) { try configure(scope) }
                return scope
            }
            try configure(scope)
        } catch {
            ScopeTable.release(token)
            throw error
        }
        ScopeTable.activate(scope)
        return scope
    }

    /// Notes a value with a lifecycle that the scope came to hold, for ``shutDownEnded()``.
    override func didHold(_ box: AnySingletonBox) {
        guard !box.isLive, box.hasLifecycle else { return }
        lifecycleBoxes.append(box)
        holdsLifecycleBoxes = true
    }

    /// Ends the scope, synchronously on the actor and so between two of its jobs: no task finds it as its scope any
    /// more, no chain reads its values, and it holds no new one. Tells whether it holds values to shut down
    /// (``shutDownEnded()``): synchronous, so that leaving a scope with nothing to shut down costs no call more.
    @usableFromInline
    func end() -> Bool {
        ScopeTable.release(token)
        hasEnded = true
        return holdsLifecycleBoxes
    }

    /// Ends the scope (``end()``) and shuts down what it held: one call, so that code off the actor leaves a scope
    /// with one hop.
    @usableFromInline
    func leave() async {
        if end() { await shutDownEnded() }
    }

    /// Shuts down, each once, the values with a lifecycle this scope held: those it replaced in reverse order, then
    /// those it made for its test in reverse order (they may be used by what replaced them: a manager's clock).
    @usableFromInline
    func shutDownEnded() async {
        precondition(hasEnded, "a scope shut down before it ended")
        let boxes = lifecycleBoxes
        lifecycleBoxes = []
        holdsLifecycleBoxes = false
        var done: Set<ObjectIdentifier> = []
        for box in boxes.reversed() where !box.madeForTest { await Self.shutDown(box, unlessIn: &done) }
        for box in boxes.reversed() where box.madeForTest { await Self.shutDown(box, unlessIn: &done) }
    }

    private static func shutDown(_ box: AnySingletonBox, unlessIn done: inout Set<ObjectIdentifier>) async {
        guard let lifecycle = box.lifecycle, done.insert(ObjectIdentifier(lifecycle)).inserted else { return }
        await lifecycle.shutdown()
    }

    /// Leaves `scope`, entered by the synchronous ``withSingletons(_:operation:)``: it ends now, and what it held
    /// with a lifecycle is shut down in a task, since the caller cannot wait.
    @usableFromInline
    static func leaveSynchronously(_ scope: SingletonScope) {
        guard scope.end() else { return }
        Task { await scope.shutDownEnded() }
    }

    /// A value set on a scope that has ended, through a reference to its container kept past its end: not held (no
    /// one would read it or shut it down), and reported, as an issue of the running test in a test process.
    static func refuseLateStore(_ box: AnySingletonBox) {
        let message =
            "appSingletons.\(box.name) was set on an override scope that had already ended (its container was kept "
            + "past the end of withSingletons or of the test), so the value was not kept. Set values inside the "
            + "scope, or on a scope of your own."
        if RegistryContext.isTest { TestReads.report(message) } else { RegistryWarnings.handler(message) }
    }
}
