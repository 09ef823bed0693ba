import SingletonRegistry

/// What a service makes in its `start()` and keeps for the services after it and for its own `shutdown()`: set once,
/// read from any thread.
package final class StartedValue<Value: Sendable>: Sendable {
    private let storage = SanitizerVisibleMutex<Value?>(nil)
    /// What the value is, for the message when it is read too early.
    private let name: String

    /// An empty slot for `name` ("the output", "the control socket").
    package init(_ name: String) {
        self.name = name
    }

    /// Keeps the value `start()` made.
    package func set(_ value: Value) {
        storage.withLock { $0 = value }
    }

    /// The value, or `nil` while the service has not started (a shutdown after a failed start).
    package var ifStarted: Value? {
        storage.withLock { $0 }
    }

    /// The value; reading it before the service started is a programming error.
    package var value: Value {
        guard let value = ifStarted else { preconditionFailure("\(name) is used before its service started") }
        return value
    }
}
