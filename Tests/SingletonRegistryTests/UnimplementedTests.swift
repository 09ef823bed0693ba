import SingletonRegistry
import SingletonRegistryTesting
import Synchronization
import Testing

/// Endpoints made with `unimplemented`: a call in a test records an issue naming the endpoint and the test, at the
/// line `unimplemented` was written; a throwing one also throws, in a test or not.
@Suite struct UnimplementedTests {
    /// A struct of closures with one endpoint of each shape.
    struct Client: Sendable {
        var sum: @Sendable (Int, Int) -> Int
        var log: @Sendable (String) -> Void
        var fetch: @Sendable () async -> [String]
        var parse: @Sendable (String) throws -> Int
        var load: @Sendable (Int, String, Bool) async throws -> String
    }

    /// The client, and the line each endpoint was written on.
    static let line = #line + 2
    static let client = Client(
        sum: unimplemented("Client.sum", placeholder: -1),
        log: unimplemented("Client.log"),
        fetch: unimplemented("Client.fetch", placeholder: []),
        parse: unimplemented("Client.parse"),
        load: unimplemented("Client.load"))

    /// Whether `issue` is the call of `endpoint` from this suite's `test`, at the endpoint's line.
    static func isCall(_ issue: Issue, of endpoint: String, offset: Int, in test: String) -> Bool {
        issue.comments.map(\.rawValue) == ["Unimplemented: \(endpoint) was called in test \(test)"]
            && issue.sourceLocation?.line == line + offset
            && issue.sourceLocation?.fileName == "UnimplementedTests.swift"
    }

    @Test func aSyncEndpointRecordsAnIssueAndReturnsItsPlaceholder() {
        withKnownIssue {
            #expect(Self.client.sum(1, 2) == -1)
        } matching: {
            Self.isCall($0, of: "Client.sum", offset: 0, in: "aSyncEndpointRecordsAnIssueAndReturnsItsPlaceholder()")
        }
    }

    @Test func aVoidEndpointRecordsAnIssue() {
        withKnownIssue {
            Self.client.log("x")
        } matching: {
            Self.isCall($0, of: "Client.log", offset: 1, in: "aVoidEndpointRecordsAnIssue()")
        }
    }

    @Test func anAsyncEndpointRecordsAnIssueAndReturnsItsPlaceholder() async {
        await withKnownIssue {
            #expect(await Self.client.fetch() == [])
        } matching: {
            Self.isCall(
                $0, of: "Client.fetch", offset: 2, in: "anAsyncEndpointRecordsAnIssueAndReturnsItsPlaceholder()")
        }
    }

    @Test func aThrowingEndpointRecordsAnIssueAndThrows() {
        withKnownIssue {
            #expect(throws: UnimplementedEndpointError(endpoint: "Client.parse")) { try Self.client.parse("1") }
        } matching: {
            Self.isCall($0, of: "Client.parse", offset: 3, in: "aThrowingEndpointRecordsAnIssueAndThrows()")
        }
    }

    @Test func anAsyncThrowingEndpointRecordsAnIssueAndThrows() async {
        await withKnownIssue {
            await #expect(throws: UnimplementedEndpointError(endpoint: "Client.load")) {
                try await Self.client.load(1, "a", true)
            }
        } matching: {
            Self.isCall($0, of: "Client.load", offset: 4, in: "anAsyncThrowingEndpointRecordsAnIssueAndThrows()")
        }
    }

    /// A test with the trait whose call of a throwing endpoint lets the error escape is failed once, by the issue at
    /// the call: the trait does not record the escaped error a second time.
    @Test func aThrowingEndpointWhoseErrorEscapesATraitTestReportsOnce() async throws {
        let trait = SingletonsTrait.singletons { _ in }
        let test = try #require(Test.current)
        let issues = Counter()
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                _ = try await Self.client.load(1, "a", true)
            }
        } matching: { _ in
            issues.add()
            return true
        }
        #expect(issues.value == 1, "one report of the call")
    }

    /// A detached task runs for no test: the throwing endpoint throws, and records nothing.
    @Test func outsideATestAThrowingEndpointOnlyThrows() async {
        let error = await Task.detached { () -> (any Error)? in
            do {
                _ = try await Self.client.load(1, "a", true)
                return nil
            } catch {
                return error
            }
        }.value
        #expect(error as? UnimplementedEndpointError == UnimplementedEndpointError(endpoint: "Client.load"))
        #expect("\(error.map { "\($0)" } ?? "")" == "Unimplemented: Client.load was called")
    }

    /// Code that Swift Testing does not run, in an explicit test: the call goes to its reporter.
    @Test func anExplicitTestsReporterGetsTheCall() async throws {
        let reports = ExplicitTestScopeTests.Reports()
        let sum = try await Task.detached {
            try await withTestSingletons(named: "harness case", reportingIssues: reports.append) {
                Self.client.sum(2, 3)
            }
        }.value
        #expect(sum == -1)
        #expect(reports.all == ["Unimplemented: Client.sum was called in test harness case"])
    }
}

/// A count that a known-issue matcher, which runs on any thread, adds to.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
