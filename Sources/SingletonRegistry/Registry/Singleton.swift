/// Reads a shared value through ``appSingletons`` on every access, so scopes and the `.singletons` trait apply.
///
/// ```swift
/// @RegistryActor
/// final class TripRecorder {
///     @Singleton(\.locationManager) var location
/// }
/// ```
///
/// The projected value replaces the value for this one instance, for a test that builds one object and wants
/// no scope: `recorder.$location.override = ScriptedLocationManager(script: fixes)`.
///
/// Use it in a type isolated to ``RegistryActor`` whose initialiser is isolated too: the key path names a property
/// isolated to the actor, so it is formed there. (A class whose mocks need a `nonisolated init` reads
/// `appSingletons` in its methods instead.)
@propertyWrapper
public struct Singleton<Value: Sendable> {
    private let keyPath: KeyPath<AppSingletons, Value>
    /// A value this instance uses instead of the shared one; `nil` reads through ``appSingletons``.
    public var override: Value?

    /// Reads the shared value at `keyPath` of ``appSingletons``.
    public init(_ keyPath: KeyPath<AppSingletons, Value>) {
        self.keyPath = keyPath
    }

    /// The instance's override, or else the value ``appSingletons`` holds now.
    @RegistryActor public var wrappedValue: Value { override ?? appSingletons[keyPath: keyPath] }

    /// The wrapper itself, to set ``override``.
    public var projectedValue: Singleton<Value> {
        get { self }
        set { self = newValue }
    }
}
