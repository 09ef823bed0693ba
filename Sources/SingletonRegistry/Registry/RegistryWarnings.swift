/// Where the registry reports a mistake it finds outside every test, in a running program: a value set
/// process-wide after it was read (``prepareSingletons(_:)``).
///
/// The registry imports no system module, so it cannot write to standard error or a system log itself. By default
/// a warning is printed to standard output, as `warning: ` and the message. A program whose standard output is data
/// (a daemon writing fixes there) installs a handler that logs where its operator looks, before it prepares its
/// values:
///
/// ```swift
/// RegistryWarnings.handler = { logger.warning($0) }
/// ```
///
/// Inside a test the same mistakes are issues of the test instead (`SingletonRegistryTesting`).
@RegistryActor
public enum RegistryWarnings {
    /// Receives each warning's message, on ``RegistryActor``; prints it to standard output until replaced.
    public static var handler: @RegistryActor @Sendable (String) -> Void = { print("warning: \($0)") }
}
