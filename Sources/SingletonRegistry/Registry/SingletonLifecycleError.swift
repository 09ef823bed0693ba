/// Why ``AppSingletons/start()`` could not order the values it holds.
public enum SingletonLifecycleError: Error, Equatable, CustomStringConvertible {
    /// The keys' ``SingletonKey/dependencies`` form a cycle; the names run from a key back to itself.
    case dependencyCycle([String])
    /// `key` depends on `dependency`, which the container does not hold.
    case undeclaredDependency(key: String, dependency: String)

    /// A sentence that names the keys involved.
    public var description: String {
        switch self {
        case .dependencyCycle(let names):
            "singleton dependencies form a cycle: \(names.joined(separator: " -> "))"
        case .undeclaredDependency(let key, let dependency):
            "\(key) depends on \(dependency), which the container does not hold: "
                + "declare it (declare(_:)) or set it before start()"
        }
    }
}
