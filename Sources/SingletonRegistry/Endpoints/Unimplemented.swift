// An endpoint of a struct of closures that a test must replace before calling it. Four shapes of closure (sync,
// async, throwing, async throwing), each for any number of arguments; a non-throwing one that returns a value
// returns `placeholder` after recording the issue, so the test goes on and reports what else went wrong.

/// An endpoint that must not be called: in a test, a call records an issue naming `description` and the test, at the
/// place `unimplemented` was written, and returns `placeholder()`; outside tests, it stops the process with a
/// `fatalError` naming `description`.
///
/// ```swift
/// static var testValue: ForecastClient {
///     ForecastClient(summary: unimplemented("ForecastClient.summary", placeholder: ""))
/// }
/// ```
public func unimplemented<each A, R>(
    _ description: String, placeholder: @autoclosure @escaping @Sendable () -> R,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each A) -> R {
    let endpoint = UnimplementedEndpoint(description, fileID: fileID, filePath: filePath, line: line, column: column)
    return { (_: repeat each A) in
        endpoint.recordOrStop()
        return placeholder()
    }
}

/// An endpoint returning nothing that must not be called: in a test, a call records an issue naming `description`
/// and the test, at the place `unimplemented` was written; outside tests, it stops the process with a `fatalError`
/// naming `description`.
public func unimplemented<each A>(
    _ description: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each A) -> Void {
    let endpoint = UnimplementedEndpoint(description, fileID: fileID, filePath: filePath, line: line, column: column)
    return { (_: repeat each A) in endpoint.recordOrStop() }
}

/// An asynchronous endpoint that must not be called: in a test, a call records an issue naming `description` and
/// the test, at the place `unimplemented` was written, and returns `placeholder()`; outside tests, it stops the
/// process with a `fatalError` naming `description`.
public func unimplemented<each A, R>(
    _ description: String, placeholder: @autoclosure @escaping @Sendable () -> R,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each A) async -> R {
    let call: @Sendable (repeat each A) -> R = unimplemented(
        description, placeholder: placeholder(), fileID: fileID, filePath: filePath, line: line, column: column)
    return call
}

/// An asynchronous endpoint returning nothing that must not be called: in a test, a call records an issue naming
/// `description` and the test, at the place `unimplemented` was written; outside tests, it stops the process with a
/// `fatalError` naming `description`.
public func unimplemented<each A>(
    _ description: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each A) async -> Void {
    let call: @Sendable (repeat each A) -> Void = unimplemented(
        description, fileID: fileID, filePath: filePath, line: line, column: column)
    return call
}

/// A throwing endpoint that must not be called: a call throws ``UnimplementedEndpointError`` naming `description`,
/// in a test or not; in a test, it first records an issue naming `description` and the test, at the place
/// `unimplemented` was written.
///
/// ```swift
/// static var testValue: ForecastClient {
///     ForecastClient(
///         forecast: unimplemented("ForecastClient.forecast"),
///         alerts: unimplemented("ForecastClient.alerts"))
/// }
/// ```
public func unimplemented<each A, R>(
    _ description: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each A) throws -> R {
    let endpoint = UnimplementedEndpoint(description, fileID: fileID, filePath: filePath, line: line, column: column)
    return { (_: repeat each A) in try endpoint.recordAndThrow() }
}

/// An asynchronous throwing endpoint that must not be called: a call throws ``UnimplementedEndpointError`` naming
/// `description`, in a test or not; in a test, it first records an issue naming `description` and the test, at the
/// place `unimplemented` was written.
public func unimplemented<each A, R>(
    _ description: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> @Sendable (repeat each A) async throws -> R {
    let call: @Sendable (repeat each A) throws -> R = unimplemented(
        description, fileID: fileID, filePath: filePath, line: line, column: column)
    return call
}
