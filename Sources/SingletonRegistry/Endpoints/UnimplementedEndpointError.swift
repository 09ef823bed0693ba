/// The error a throwing endpoint made with `unimplemented(_:fileID:filePath:line:column:)` throws when it is called:
/// it names the endpoint.
///
/// In a test, the call has also recorded an issue against the test; outside tests the error is the only report.
public struct UnimplementedEndpointError: Error, Equatable, CustomStringConvertible {
    /// The endpoint's description, as given to `unimplemented`: `"ForecastClient.alerts"`.
    public let endpoint: String

    /// The error of the endpoint described by `endpoint`.
    public init(endpoint: String) {
        self.endpoint = endpoint
    }

    /// `Unimplemented: ForecastClient.alerts was called`.
    public var description: String { "Unimplemented: \(endpoint) was called" }
}
