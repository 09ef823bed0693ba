import Dependencies

/// What a swift-dependencies model holds: `@Dependency` properties, read on every use.
///
/// Made once before a timed loop, as a model is made once and used many times; each read of a property merges
/// the values captured at creation with the task's current ones, as the wrapper does in a release build.
struct DependencyReader: Sendable {
    @Dependency(\.peerService) var service
    @Dependency(\.peerClient) var client
    @Dependency(Filler20Dependency.self) var filler20
}
