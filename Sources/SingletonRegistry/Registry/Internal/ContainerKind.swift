/// What a container is: the one value that decides where its members act and where a read it cannot satisfy goes.
///
/// Together with ``RegistryContext`` (a live process or a test process) it is all a container knows of itself, as a
/// swift-dependencies `DependencyContext` is all a dependency value knows.
@usableFromInline
enum ContainerKind: Sendable {
    /// ``appSingletons``: its members act on the calling task's scope's container; outside every scope, on its own
    /// values in a live process, and on the test's (or the run's) values in a test process.
    case processWide
    /// A container made by hand (`AppSingletons()`): its members act on itself.
    case standalone
    /// An override scope's container (``SingletonScope``), in front of the container it was entered in.
    case scope
}

/// Whether the process is live or a test process: decided once, when the registry first looks, by whether the
/// testing library's ``SingletonTestContext`` is linked in.
///
/// In a test process no read is ever given a live value: what a test did not replace comes from the key's test
/// value, for the test, or for the run where the reading code carries no test.
enum RegistryContext {
    /// Whether this is a test process.
    static let isTestProcess = TestValues.context != nil

    /// Whether the current task reads as a live process does, in a test process: set by ``withLiveSingletons(_:)``
    /// alone, for the registry's own tests of its live behaviour.
    @TaskLocal static var readsLive = false

    /// Whether a read that no container satisfies gets a test value (``TestReads``) rather than a live one.
    static var isTest: Bool { isTestProcess && !readsLive }

    /// The container that holds the process's live values: ``appSingletons``, or, in a test process, a stand-in that
    /// only code inside ``withLiveSingletons(_:)`` reaches (so no other read ever finds a live value there).
    @RegistryActor static var liveRoot: AppSingletons { isTestProcess ? TestValues.liveStandIn : appSingletons }
}

/// Runs `operation` reading as a live process does, in a test process: a key nothing replaced gives its live value.
/// For the registry's own tests of its live behaviour; a detached task or thread started inside does not inherit it.
package func withLiveSingletons<R>(
    isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> R
) async rethrows -> R {
    try await RegistryContext.$readsLive.withValue(true, operation: operation, isolation: isolation)
}
