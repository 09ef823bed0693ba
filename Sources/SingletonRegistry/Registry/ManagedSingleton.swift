/// A value that ``AppSingletons`` starts and stops as part of the registry's lifecycle.
///
/// ``AppSingletons/start()`` calls ``start()`` on each such value it holds, after the values its key depends on
/// (``SingletonKey/dependencies``), and ``AppSingletons/shutdown()`` calls ``shutdown()`` in reverse order, awaiting
/// each before the next. A value an override scope replaced is shut down when the scope ends.
@RegistryActor
public protocol ManagedSingleton: AnyObject {
    /// Starts the manager's work; a manager with nothing configured to start returns at once.
    func start() async throws
    /// Cancels everything the manager started and returns once all of it has ended.
    ///
    /// Shutting down leaves the manager usable: it can be started again.
    func shutdown() async
}
