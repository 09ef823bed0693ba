/// Scopes that ended and that nothing references any more, kept to be entered again: entering a scope then
/// allocates no container, and leaving one frees none.
///
/// Only outermost scopes are kept (their container stands in front of ``appSingletons``, which never changes), and
/// only when the scope had nothing to shut down and its leaver held the last reference
/// (`isKnownUniquelyReferenced`): a scope that some code still holds (the testing library's, a test's) is left to
/// be freed as usual. The pool lives in memory it allocates, reached through variables of trivial type, so using it
/// makes no lazy-initialisation check; only ``RegistryActor`` touches it, synchronously (CONCURRENCY.md, "The open
/// registry").
@RegistryActor
enum ScopePool {
    /// How many scopes the pool keeps at most.
    static let capacity = 8
    /// The pooled scopes: the first `count` of `capacity`, retained; `nil` until the first scope is kept.
    @exclusivity(unchecked) private static var scopes: UnsafeMutablePointer<Unmanaged<SingletonScope>>? = nil
    @exclusivity(unchecked) private static var count = 0

    /// A pooled scope, if there is one; the caller owns it.
    static func take() -> SingletonScope? {
        guard count != 0, let scopes else { return nil }
        count &-= 1
        return scopes[count].takeRetainedValue()
    }

    /// Keeps `scope`, which has ended, if it qualifies and there is room; otherwise it is released as usual.
    static func keep(_ scope: consuming SingletonScope) {
        var scope = scope
        guard count < capacity, scope.isOutermost, isKnownUniquelyReferenced(&scope) else { return }
        scope.clearForReuse()
        if scopes == nil { scopes = .allocate(capacity: capacity) }
        scopes.unsafelyUnwrapped[count] = Unmanaged.passRetained(scope)
        count &+= 1
    }
}
