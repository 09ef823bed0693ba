import SingletonRegistry
import Testing

/// Runs `operation` with some shared values replaced, as `withSingletons(_:isolation:operation:)` does, and
/// records the reads that escaped its task tree as issues of the running test, as the `.singletons` trait does.
///
/// For a test that enters a scope itself (a helper that sets up several values, a scope around part of a test):
///
/// ```swift
/// @Test func partOfATest() async throws {
///     try await withCheckedSingletons({ $0.longTaskManager = RecordingLongTaskManager() }) {
///         try await appSingletons.longTaskManager.doLongTask()
///     }
/// }
/// ```
public func withCheckedSingletons<R>(
    _ configure: @RegistryActor (AppSingletons) throws -> Void,
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    operation: () async throws -> R
) async throws -> R {
    await EscapedReadDetection.enable()
    let (scope, result) = try await withSingletons(configure) { () async -> (SingletonScope?, Result<R, any Error>) in
        let scope = await SingletonScope.ofCurrentTask
        await EscapedReadDetection.track(scope, sourceLocation: sourceLocation)
        do {
            return (scope, .success(try await operation()))
        } catch {
            return (scope, .failure(error))
        }
    }
    if let scope { await EscapedReadDetection.recordIssues(for: scope, sourceLocation: sourceLocation) }
    return try result.get()
}
