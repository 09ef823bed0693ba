/// One active override scope: the container its task tree sees, what it replaced, and what escaped it.
@RegistryActor
public final class SingletonScope {
    /// The scope of the current task, inherited by child tasks and `Task {}`; `nil` outside every scope.
    @TaskLocal static var current: SingletonScope?

    /// How many scopes are active; the hot path checks only this when no scope is active.
    static var activeCount = 0
    /// The active scopes, in the order they were entered.
    private static var active: [ObjectIdentifier: SingletonScope] = [:]

    /// Decides whether a read with no scope of its own counts as escaped; the testing library installs one.
    ///
    /// `nil` (the default) reports nothing, so production code outside every scope reads the process-wide
    /// managers silently. The testing library answers "yes" only for reads made outside every test's task tree.
    public static var isEscapedRead: (@Sendable () -> Bool)?

    /// The container this scope's task tree sees.
    let singletons: AppSingletons
    /// Whether the scope is still active; its replacements apply only until it exits.
    private(set) var isActive = false
    /// The managers this scope replaced.
    public private(set) var replaced: [SingletonKey] = []
    /// The escaped reads recorded while the scope was active, oldest first (at most ``maxEscapesKept``).
    public private(set) var escapes: [EscapedRead] = []
    /// How many escaped reads were recorded in all, including those not kept.
    public private(set) var escapeCount = 0
    /// The number of escaped reads a scope keeps; later ones are only counted.
    public static let maxEscapesKept = 16

    private init(parent: AppSingletons) {
        singletons = AppSingletons(scopedCopyOf: parent)
    }

    /// The scope of the calling task, if it runs inside ``withSingletons(_:isolation:operation:)``.
    public static var ofCurrentTask: SingletonScope? { current }

    /// Creates and activates a scope whose container copies the current one and is then configured.
    static func enter(_ configure: @RegistryActor (AppSingletons) throws -> Void) rethrows -> SingletonScope {
        let parent = appSingletons
        let scope = SingletonScope(parent: parent)
        try configure(scope.singletons)
        scope.replaced = SingletonKey.allCases.filter { key in
            scope.singletons.manager(for: key) !== parent.manager(for: key)
        }
        scope.isActive = true
        active[ObjectIdentifier(scope)] = scope
        activeCount = active.count
        return scope
    }

    /// Deactivates the scope, then shuts down the managers it replaced, awaiting them.
    func exit() async {
        isActive = false
        Self.active[ObjectIdentifier(self)] = nil
        Self.activeCount = Self.active.count
        for key in replaced.reversed() {
            await singletons.manager(for: key).shutdown()
        }
    }

    /// Records a read of `key` from a container that belongs to no scope, if it escaped an active scope.
    static func noteUnscopedRead(of key: SingletonKey) {
        guard current == nil, let isEscapedRead, isEscapedRead() else { return }
        for scope in active.values where scope.replaced.contains(key) {
            scope.escapeCount += 1
            if scope.escapes.count < maxEscapesKept { scope.escapes.append(EscapedRead(key: key)) }
        }
    }
}
