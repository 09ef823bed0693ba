/// What an override scope entered in a test process knows of its test: the test, where reports about the scope go,
/// and the reads that escaped its task tree.
@RegistryActor
final class SingletonTestRecord {
    /// The test whose task entered the scope, if any.
    let test: SingletonTestIdentity?
    /// Where a report about the scope goes in the user's code (a `SourceLocation`, set by the testing library).
    var reportLocation: (any Sendable)?
    /// Escaped reads attributed to the scope's task tree, oldest first.
    var escapes: [EscapedRead] = []
    /// How many escaped reads were attributed to the scope's task tree, including those not kept.
    var escapeCount = 0
    /// Whether the scope is a test's, which holds the values the test reads without replacing them.
    var holdsTestValues = false

    init(test: SingletonTestIdentity?) {
        self.test = test
    }
}
