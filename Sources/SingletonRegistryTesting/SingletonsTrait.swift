import SingletonRegistry
import Testing

/// A Swift Testing trait that replaces shared values for each test (or each case of a parameterised test).
///
/// ```swift
/// @Test(.singletons { $0.longTaskManager = RecordingLongTaskManager() })
/// func usesTheMock() async throws { ... }
/// ```
///
/// The replacement is a task-local override made with `withSingletons(_:isolation:operation:)`,
/// so tests that run in parallel each see their own values. When the test ends, the values it replaced that have
/// a lifecycle are shut down and the work they started is cancelled and awaited, so nothing runs on into the next
/// test. A read of a replaced value that missed the replacement is reported: it fails the test when the reading
/// task carried the test (but not its scope); from a task that carries no test (a detached task, a Dispatch
/// callback) it is one warning for the whole run, since nothing tells which test it came from.
public struct SingletonsTrait: TestTrait, SuiteTrait, TestScoping {
    let configure: @RegistryActor @Sendable (AppSingletons) -> Void
    let sourceLocation: SourceLocation
    /// Whether each test reports, as a warning, the keys it read without replacing them and those it replaced.
    let reportsUsage: Bool
    /// Replaces values asynchronously, on the test's scope once it is active and before the test body runs; a
    /// thrown error fails the test and the body does not run.
    var prepare: (@RegistryActor @Sendable (AppSingletons) async throws -> Void)? = nil

    /// Applied to a suite, the trait replaces values for each test in it.
    public var isRecursive: Bool { true }

    /// Runs `function` inside an override scope and reports reads that escaped it.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        await EscapedReadDetection.enable()
        let (scope, failure) = await withSingletons(configure) { () async -> (SingletonScope?, (any Error)?) in
            let scope = await SingletonScope.ofCurrentTask
            await EscapedReadDetection.track(scope, sourceLocation: sourceLocation)
            // A test case's own scope holds the values it reads without replacing them; a suite's does not.
            if testCase != nil { await scope?.markHoldsTestValues() }
            do {
                if let prepare, let scope { try await prepare(scope) }
                try await function()
                return (scope, nil)
            } catch {
                return (scope, error)
            }
        }
        if let scope { await EscapedReadDetection.recordIssues(for: scope, sourceLocation: sourceLocation) }
        if reportsUsage, testCase != nil, let scope {
            Issue.record(
                Comment(rawValue: await Self.usage(of: scope)), severity: .warning, sourceLocation: sourceLocation)
        }
        // An unimplemented endpoint's error that escaped the test was recorded as an issue at the call already.
        if let failure, (failure as? UnimplementedEndpointError)?.wasRecorded != true { throw failure }
    }
}

extension SingletonsTrait {
    /// What the test of `scope` used: the keys it read without replacing them (each its own test value) and the
    /// keys it replaced.
    @RegistryActor
    package static func usage(of scope: SingletonScope) -> String {
        func list(_ names: [String]) -> String { names.isEmpty ? "none" : names.joined(separator: ", ") }
        return "singletons read without replacing them: \(list(scope.readWithoutReplacing)); "
            + "replaced: \(list(scope.replaced))"
    }
}

extension Trait where Self == SingletonsTrait {
    /// Replaces shared values for the test: `configure` sets them on the test's scope container, which stands in front
    /// of the enclosing one.
    ///
    /// Escaped reads are reported at `sourceLocation`, the place the trait is applied.
    ///
    /// With `reportingUsage`, each test also reports, as a warning, the keys it read without replacing them and the
    /// keys it replaced: a way to see that a test reads `locationManager` on its test value before that matters.
    public static func singletons(
        reportingUsage: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ configure: @escaping @RegistryActor @Sendable (AppSingletons) -> Void
    ) -> Self {
        SingletonsTrait(configure: configure, sourceLocation: sourceLocation, reportsUsage: reportingUsage)
    }
}
