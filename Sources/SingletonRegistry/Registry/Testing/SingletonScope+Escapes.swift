/// What a scope in a test process records of the reads that escaped it.
extension SingletonScope {
    /// Escaped reads attributed to this scope's task tree, oldest first (at most ``maxEscapesKept``).
    package var escapes: [EscapedRead] { testRecord?.escapes ?? [] }
    /// How many escaped reads were attributed to this scope's task tree, including those not kept.
    package var escapeCount: Int { testRecord?.escapeCount ?? 0 }
    /// Where a report about this scope goes in the user's code (a `SourceLocation`, set by the testing library).
    package var reportLocation: (any Sendable)? {
        get { testRecord?.reportLocation }
        set { testRecord?.reportLocation = newValue }
    }
    /// The number of escaped reads a scope keeps; later ones are only counted.
    package static let maxEscapesKept = 16

    /// The active scopes that replaced the key with identifier `id`, and the key's name.
    private static func scopesReplacing(_ id: ObjectIdentifier) -> (scopes: [SingletonScope], name: String?) {
        var scopes: [SingletonScope] = []
        var name: String?
        for scope in ScopeTable.all {
            for box in scope.ownBoxes where box.id == id && !box.isLive && !box.madeForTest {
                scopes.append(scope)
                name = box.name
            }
        }
        return (scopes, name)
    }

    /// Records a read of the key with identifier `id` by a task of `test` that runs in none of its scopes, if a
    /// scope of that test replaced the key: the task carries the test but lost its scope, so the read escaped that
    /// test's scope and is attributed to it, whatever other tests run beside it.
    static func noteTestRead(
        of id: ObjectIdentifier, by test: SingletonTestIdentity, accessor: @autoclosure () -> String
    ) {
        guard isEscapedRead != nil else { return }
        let (scopes, name) = scopesReplacing(id)
        guard let name, let scope = scopes.first(where: { $0.test == test }) else { return }
        scope.outermost.noteEscape(EscapedRead(keyName: name, accessor: accessor()))
    }

    /// Records `read` as an escape of this scope's task tree.
    private func noteEscape(_ read: EscapedRead) {
        guard let testRecord else { return }
        testRecord.escapeCount += 1
        if testRecord.escapes.count < Self.maxEscapesKept { testRecord.escapes.append(read) }
    }

    /// Notes a read of the key with identifier `id` from a task of no scope and no test, if it escaped an active
    /// scope. Nothing the task carries names the test it came from, so the read is blamed on no test: it is
    /// reported once for the run (``UnattributedEscapes``), however many scopes replaced the key.
    static func noteUnscopedRead(of id: ObjectIdentifier, accessor: @autoclosure () -> String) {
        guard let isEscapedRead, isEscapedRead() else { return }
        let (scopes, name) = scopesReplacing(id)
        guard let name, let first = scopes.first else { return }
        var tests: [String] = []
        for scope in scopes {
            if let test = scope.outermost.test?.name, !tests.contains(test) { tests.append(test) }
        }
        let read = EscapedRead(keyName: name, accessor: accessor())
        UnattributedEscapes.note(read, replacedBy: tests, reportLocation: first.outermost.reportLocation)
    }
}
