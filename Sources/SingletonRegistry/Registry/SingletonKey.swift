/// Declares one value that ``AppSingletons`` holds: its type, how the live value is made, and what it depends on.
///
/// A module declares a singleton with a key type and an accessor on ``AppSingletons``; the registry's own
/// `longTaskManager` is declared exactly this way:
///
/// ```swift
/// public enum NetworkManagerKey: SingletonKey {
///     public static var liveValue: NetworkManager { NetworkManager() }
///     public static var dependencies: [any SingletonKey.Type] { [LocationManagerKey.self] }
/// }
///
/// extension AppSingletons {
///     public var networkManager: NetworkManager {
///         get { self[NetworkManagerKey.self] }
///         set { self[NetworkManagerKey.self] = newValue }
///     }
/// }
/// ```
///
/// The value can be a manager class isolated to ``RegistryActor`` (non-final, so tests subclass it), or any
/// `Sendable` value: a struct of closures, a clock, a configuration. A value that conforms to
/// ``ManagedSingleton`` is started and shut down with the registry; other values are only held.
@RegistryActor
public protocol SingletonKey {
    /// The type of the value held under this key.
    associatedtype Value: Sendable

    /// The live value, made once per process on the first read that finds no other value under the key.
    static var liveValue: Value { get }

    /// The value a test reads when it did not replace the key: made once per test (or per case of a parameterised
    /// test), for that test alone, and shut down at its end when the test uses the `.singletons` trait.
    ///
    /// A key that declares none gives a test a live value of its own, and records an issue against the test that
    /// names the accessor and the two fixes, as swift-dependencies does for a `DependencyKey` without a
    /// `testValue`.
    static var testValue: Value { get }

    /// The keys whose values must be started before this one and shut down after it.
    ///
    /// ``AppSingletons/start()`` throws ``SingletonLifecycleError`` when these form a cycle or name a key the
    /// container does not hold.
    static var dependencies: [any SingletonKey.Type] { get }

    /// The name reports use for the key: the `STATUS` reply, escape reports, lifecycle errors.
    ///
    /// By default the type's name without a trailing `Key`, starting in lower case: `NetworkManagerKey` is
    /// `networkManager`, the name of its accessor by convention.
    static var name: String { get }
}

extension SingletonKey {
    /// None declared: a live value of the test's own, with an issue recorded against the test.
    public static var testValue: Value {
        TestValues.fellBackToLiveValue = true
        return liveValue
    }

    /// No dependencies.
    public static var dependencies: [any SingletonKey.Type] { [] }

    /// The type's name without a trailing `Key`, starting in lower case.
    public static var name: String {
        var name = String(describing: Self.self)
        if name.count > 3, name.hasSuffix("Key") { name.removeLast(3) }
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }
}
