import SingletonRegistry

/// A struct of closures, declared in a module whose code is on the main actor by default.
///
/// Its memberwise `init` would be isolated to the main actor; the key's `liveValue` and `testValue` run on
/// `RegistryActor`, so the explicit `init` is `nonisolated`.
public struct AlertClient: Sendable {
    public var alerts: @Sendable (String) async throws -> [String]

    public nonisolated init(alerts: @escaping @Sendable (String) async throws -> [String]) {
        self.alerts = alerts
    }
}

/// The key, declared as in any module: its conformance takes `SingletonKey`'s `RegistryActor` isolation.
public enum AlertClientKey: SingletonKey {
    public static var liveValue: AlertClient { AlertClient { _ in [] } }
    public static var testValue: AlertClient { AlertClient(alerts: unimplemented("AlertClient.alerts")) }
}

extension AppSingletons {
    /// The alert client.
    public var alertClient: AlertClient {
        get { self[AlertClientKey.self] }
        set { self[AlertClientKey.self] = newValue }
    }
}
