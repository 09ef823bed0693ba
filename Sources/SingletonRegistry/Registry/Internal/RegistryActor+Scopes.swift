/// Entering and leaving an override scope from code that runs on ``RegistryActor`` but is isolated to it only
/// through an `isolated (any Actor)?` parameter (``withSingletons(_:isolation:operation:)`` called on the actor):
/// synchronous calls, where `await` would switch executors twice for each.
///
/// Each checks that `isolation` is ``RegistryActor/shared``; code isolated to an actor runs on that actor's
/// executor, so the actor's isolated function may run there synchronously, called through a function value whose
/// type has lost its `@RegistryActor`, as `MainActor.assumeIsolated` calls its operation (CONCURRENCY.md, "Entering
/// a scope on the actor").
extension RegistryActor {
    /// `SingletonScope.enter(configure)`, synchronously, from code isolated to `isolation`, the registry's actor; what
    /// `configure` threw, if it did, as a failure (thrown again by ``rethrow(_:from:)``).
    @usableFromInline
    static func enterScope(
        _ configure: @RegistryActor (AppSingletons) throws -> Void, isolation: isolated (any Actor)?
    ) -> Result<SingletonScope, any Error> {
        precondition(isShared(isolation), "a scope entered synchronously off the registry's actor")
        typealias Configure = @RegistryActor (AppSingletons) throws -> Void
        var enter: @RegistryActor (Configure) throws -> SingletonScope = { try SingletonScope.enter($0) }
        // The compiler reabstracts `configure` for this call through a thunk it allocates: one allocation, against
        // the four executor switches of awaiting `enter` and `deactivate`.
        let enterHere = withUnsafePointer(to: &enter) {
            UnsafeRawPointer($0).load(as: ((Configure) throws -> SingletonScope).self)
        }
        do {
            return .success(try enterHere(configure))
        } catch {
            return .failure(error)
        }
    }

    /// Throws `error`, which `configure` threw: a function of `configure`'s thrown type, so that a `rethrows`
    /// caller may call it.
    @inlinable
    static func rethrow<Failure: Error>(
        _ error: any Error, from configure: @RegistryActor (AppSingletons) throws(Failure) -> Void
    ) throws(Failure) -> Never {
        throw error as! Failure
    }

    /// `scope.end()`, synchronously, from code isolated to `isolation`, the registry's actor.
    @usableFromInline
    static func end(_ scope: SingletonScope, isolation: isolated (any Actor)?) -> Bool {
        precondition(isShared(isolation), "a scope left synchronously off the registry's actor")
        var end: @RegistryActor (SingletonScope) -> Bool = { $0.end() }
        let endHere = withUnsafePointer(to: &end) {
            UnsafeRawPointer($0).load(as: ((SingletonScope) -> Bool).self)
        }
        return endHere(scope)
    }
}
