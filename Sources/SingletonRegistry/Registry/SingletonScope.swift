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
    /// The name its tasks carry in ``token``.
    @usableFromInline let token: UInt64
    /// The outermost active scope of the task tree that entered this one, or `nil` when this one is outermost.
    private let enclosingRoot: SingletonScope?
    /// The scope this one was entered in, if any.
    private let enclosingScope: SingletonScope?
    /// Whether this scope is a test's (the `.singletons` trait's, for one test case): it holds the values the test
    /// reads without replacing them, made from their keys' test values, and shuts them down when it ends.
    package private(set) var holdsTestValues = false

    /// Makes this scope hold the values its test reads without replacing them.
    package func markHoldsTestValues() { holdsTestValues = true }
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

    /// Escaped reads attributed to this scope's task tree, oldest first (at most ``maxEscapesKept``).
    package private(set) var escapes: [EscapedRead] = []
    /// How many escaped reads were attributed to this scope's task tree, including those not kept.
    package private(set) var escapeCount = 0
    /// The test whose task entered this scope, if any: escaped reads that carry it are attributed to this scope.
    package let test: SingletonTestIdentity?
    /// Where a report about this scope goes in the user's code (a `SourceLocation`, set by the testing library).
    package var reportLocation: (any Sendable)?
    /// The number of escaped reads a scope keeps; later ones are only counted.
    package static let maxEscapesKept = 16

    private init(parent: AppSingletons, enclosing: SingletonScope?, token: UInt64) {
        enclosingRoot = enclosing.map { $0.root }
        enclosingScope = enclosing
        self.token = token
        test = TestValues.context?.currentTest()
        super.init(inFrontOf: parent)
    }

    /// The outermost scope of this scope's task tree: the one escapes of the tree are recorded on.
    private var root: SingletonScope { enclosingRoot ?? self }

    /// Whether any scope is active in the process.
    package static var anyActive: Bool { ActiveScopes.count != 0 }

    /// The scope of the calling task, if it runs inside ``withSingletons(_:isolation:operation:)``.
    package static var ofCurrentTask: SingletonScope? { current }

    /// Creates and activates a scope whose container stands in front of the current one and is then configured.
    @usableFromInline
    static func enter(_ configure: @RegistryActor (AppSingletons) throws -> Void) rethrows -> SingletonScope {
        let enclosing = current
        let parent = enclosing?.singletons ?? appSingletons
        let token = ActiveScopes.reserveToken()
        let scope = SingletonScope(parent: parent, enclosing: enclosing, token: token)
        // In a test process, the values `configure` makes (a test value that reads another key) read what it has
        // set so far: the scope is not active until it returns.
        let outerConfiguring = scope.readsAsTest ? TestValues.beginConfiguring(scope) : nil
        defer { if scope.readsAsTest { TestValues.endConfiguring(restoring: outerConfiguring) } }
        do {
            try configure(scope.singletons)
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
        return singletons.ownBoxesContain { !$0.isLive && $0.hasLifecycle }
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
        escapeCount += 1
        if escapes.count < Self.maxEscapesKept { escapes.append(read) }
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
