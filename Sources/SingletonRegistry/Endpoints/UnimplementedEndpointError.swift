/// The error a throwing endpoint made with `unimplemented(_:fileID:filePath:line:column:)` throws when it is called:
/// it names the endpoint.
///
/// In a test, the call has also recorded an issue against the test; outside tests the error is the only report. A
/// test with the `.singletons` trait that lets the error escape is not failed a second time for it.
public struct UnimplementedEndpointError: Error, Equatable, CustomStringConvertible {
    /// The endpoint's description, as given to `unimplemented`: `"ForecastClient.alerts"`.
    public let endpoint: String
    /// Whether the call recorded an issue against its test already.
    package let wasRecorded: Bool

    /// The error of the endpoint described by `endpoint`.
    public init(endpoint: String) {
        self.init(endpoint: endpoint, wasRecorded: false)
    }

    package init(endpoint: String, wasRecorded: Bool) {
        self.endpoint = endpoint
        self.wasRecorded = wasRecorded
    }

    /// Errors of the same endpoint are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.endpoint == rhs.endpoint }

    /// `Unimplemented: ForecastClient.alerts was called`.
    public var description: String { "Unimplemented: \(endpoint) was called" }
}
