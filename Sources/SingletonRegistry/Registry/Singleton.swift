/// Reads a shared value through ``appSingletons`` on every access, so scopes and the `.singletons` trait apply.
///
/// ```swift
/// @RegistryActor
/// class TripRecorder {
///     @Singleton(\.locationManager) var location
///     nonisolated init() {}
/// }
/// ```
///
/// The key path is formed on ``RegistryActor`` when the value is first read, not where the wrapper is declared, so
/// the type may have a `nonisolated init` (what its mocks need to be made with `Mock()`).
///
/// The projected value replaces the value for this one instance, for a test that builds one object and wants
/// no scope: `recorder.$location.override = ScriptedLocationManager(script: fixes)`.
@propertyWrapper
public struct Singleton<Value: Sendable> {
    private let keyPath: @RegistryActor @Sendable () -> KeyPath<AppSingletons, Value>
    /// A value this instance uses instead of the shared one; `nil` reads through ``appSingletons``.
    public var override: Value?

    /// Reads the shared value at `keyPath` of ``appSingletons``.
    public init(_ keyPath: @autoclosure @escaping @RegistryActor @Sendable () -> KeyPath<AppSingletons, Value>) {
        self.keyPath = keyPath
    }

    /// The instance's override, or else the value ``appSingletons`` holds now.
    @RegistryActor public var wrappedValue: Value { override ?? appSingletons[keyPath: keyPath()] }

    /// The wrapper itself, to set ``override``.
    public var projectedValue: Singleton<Value> {
        get { self }
        set { self = newValue }
    }
}
