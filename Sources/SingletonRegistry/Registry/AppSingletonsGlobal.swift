/// The process-wide container, the one ``appSingletons`` returns outside every override scope.
@RegistryActor private var processWideSingletons = AppSingletons(locationManager: nil, longTaskManager: nil)

/// The shared managers, as code reaches them.
///
/// Inside ``withSingletons(_:isolation:operation:)`` (or a test using the `.singletons` trait) this is the
/// scope's container, for the scope's task and every child task and `Task {}` it starts; elsewhere it is the
/// process-wide container. Assigning replaces the process-wide container, as the original seed's tests did:
/// simple, but not safe for tests that run in parallel.
///
/// A scope's replacements last as long as the scope: a task that outlives it (a `Task {}` still running when
/// `withSingletons` returned) reads the process-wide managers afterwards, like any other task. While no scope is
/// active at all, a read skips the task-local lookup.
@RegistryActor
public var appSingletons: AppSingletons {
    get {
        guard SingletonScope.activeCount != 0, let scope = SingletonScope.current, scope.isActive else {
            return processWideSingletons
        }
        return scope.singletons
    }
    set { processWideSingletons = newValue }
}
