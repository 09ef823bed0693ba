import SingletonRegistry

extension Singletond {
    /// Makes the registry's warnings (a value set process-wide after it was read) log lines at the warning level:
    /// the registry would print them to standard output, which may carry the fixes.
    @RegistryActor
    static func logRegistryWarnings(to logger: LogWriter) {
        RegistryWarnings.handler = { logger.warning("registry: \($0)") }
    }
}
