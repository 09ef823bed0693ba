/// Scopes that ended and that nothing references any more, kept to be entered again: entering a scope then
/// allocates no container, and leaving one frees none.
///
/// Only outermost scopes are kept (their container stands in front of ``appSingletons``, which never changes), and
/// only when the scope had nothing to shut down and its leaver held the last reference
/// (`isKnownUniquelyReferenced`): a scope that some code still holds (the testing library's, a test's) is left to
/// be freed as usual. The pool is a ``RegistryTable``, so using it makes no lazy-initialisation check; only
/// ``RegistryActor`` touches it, synchronously.
@RegistryActor
enum ScopePool {
    /// How many scopes the pool keeps at most.
    static let capacity = 8
    /// The pooled scopes, retained, as a stack: its part of ``RegistryTables``.
    private static var scopes: RegistryTable<Unmanaged<SingletonScope>> {
        _read { yield RegistryTables.state.pool }
        _modify { yield &RegistryTables.state.pool }
    }

    /// A pooled scope, if there is one; the caller owns it.
    static func take() -> SingletonScope? {
        scopes.pop()?.takeRetainedValue()
    }

    /// Keeps `scope`, which has ended, if it qualifies and there is room; otherwise it is released as usual.
    static func keep(_ scope: consuming SingletonScope) {
        var scope = scope
        guard scopes.count < capacity, scope.isOutermost, isKnownUniquelyReferenced(&scope) else { return }
        scope.clearForReuse()
        scopes.push(Unmanaged.passRetained(scope))
    }
}
