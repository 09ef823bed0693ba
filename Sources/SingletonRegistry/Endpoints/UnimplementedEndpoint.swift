/// Where an endpoint made with `unimplemented` was written, and what to do when it is called: record an issue
/// against the running test, or, outside tests, say that there is none.
package struct UnimplementedEndpoint: Sendable {
    /// The endpoint's description: `"ForecastClient.forecast"`.
    package let description: String
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    /// The endpoint `description`, written at the given place.
    package init(_ description: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        self.description = description
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// Records "Unimplemented: `description` was called in test `name`" against the test the calling task runs for,
    /// at the place the endpoint was written; `false`, recording nothing, when the task runs for no test.
    package func recordInTest() -> Bool {
        guard let context = TestValues.context, let test = context.currentTest() else { return false }
        context.recordIssue(
            "Unimplemented: \(description) was called in test \(test.name)",
            fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
        return true
    }

    /// Records the call in a test; outside tests, stops the process naming the endpoint.
    func recordOrStop() {
        guard recordInTest() else {
            fatalError("Unimplemented: \(description) was called outside a test", file: filePath, line: line)
        }
    }

    /// Records the call in a test; then, in a test or not, throws ``UnimplementedEndpointError``.
    func recordAndThrow() throws -> Never {
        throw UnimplementedEndpointError(endpoint: description, wasRecorded: recordInTest())
    }
}
