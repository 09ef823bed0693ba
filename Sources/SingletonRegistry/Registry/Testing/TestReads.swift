/// The slow path of a read in a test process, where no read gets a live value.
///
/// A read that no container of the reading task's chain satisfies gets the key's test value: made for the reading
/// test (held by its trait scope, or by a container of the test's own), or, where the reading code carries no test
/// (a detached task, a thread, a callback), once for the run. A key that declares no test value gives a value made
/// from its live value, of the test's (or the run's) own, and the one who made the read is told: the test, or the
/// run, never a test running beside it.
@RegistryActor
enum TestReads {
    /// The container ``appSingletons`` acts on outside every scope: the test's own, or the run's.
    static func containerOutsideScopes() -> AppSingletons {
        if let test = currentTest() { return TestValues.container(for: test) }
        return TestValues.runContainer
    }

    /// The test the calling code runs for: Swift Testing's, or the one an ``EscapedSingletons`` carried to it.
    static func currentTest() -> SingletonTestIdentity? {
        TestValues.context?.currentTest() ?? SingletonScope.escapedTestLocal.get()
    }

    /// The box a read of `key` from `container` gets, when its chain holds none.
    static func box(
        of key: any SingletonKey.Type, readFrom container: AppSingletons, accessor: StaticString
    ) -> AnySingletonBox {
        let id = ObjectIdentifier(key)
        let scope = ScopeTable.currentScope
        // While a scope is configured, a read through `appSingletons` (a test value made there that reads another
        // key) sees what the configure closure has set so far.
        let reader: AppSingletons? = container.kind == .processWide ? (TestValues.configuring ?? scope) : container
        if let reader, let box = reader.box(for: id) { return box }
        if container.kind == .standalone, let box = scope?.box(for: id) { return box }
        let name = accessorName(accessor, of: key)
        guard let test = currentTest() ?? scope?.test else {
            if scope == nil, SingletonScope.token != 0 {
                UnattributedEscapes.noteReadAfterScopeEnded(accessor: name)
            } else if scope == nil, ScopeTable.count != 0 {
                SingletonScope.noteUnscopedRead(of: id, accessor: name)
            }
            let holder = container.kind == .standalone ? container : TestValues.runContainer
            if let box = holder.ownBox(for: id) { return box }
            return held(TestValues.makeBox(of: key, for: nil, accessor: name), in: holder)
        }
        if let box = TestValues.existingContainer(for: test)?.ownBox(for: id) { return box }
        if scope == nil, container.kind == .processWide {
            if SingletonScope.token != 0 {
                UnattributedEscapes.noteReadAfterScopeEnded(accessor: name)
            } else if ScopeTable.count != 0 {
                SingletonScope.noteTestRead(of: id, by: test, accessor: name)
            }
        }
        return held(TestValues.makeBox(of: key, for: test, accessor: name), in: holder(for: test, reader: reader))
    }

    /// Where a test value made for `test` is held: the nearest trait scope of the reader's chain that has not
    /// ended (shut down with the test), else the scope being configured outside a trait scope, else a container
    /// of the reader's own made by hand, else the test's own container.
    private static func holder(for test: SingletonTestIdentity, reader: AppSingletons?) -> AppSingletons {
        if let scope = reader as? SingletonScope {
            if let testScope = scope.testScope { return testScope }
            if TestValues.configuring === scope { return scope }
        }
        if let reader, reader.kind == .standalone { return reader }
        return TestValues.container(for: test)
    }

    private static func held(_ box: AnySingletonBox, in holder: AppSingletons) -> AnySingletonBox {
        holder.hold(box)
        return box
    }

    /// Reports `message`: as an issue of the running test, or once for the run where no test runs.
    static func report(_ message: String) {
        guard let context = TestValues.context else { return }
        if context.currentTest() != nil { context.recordIssue(message) } else { context.recordRunIssue(message) }
    }

    /// The name of the accessor that read `key`: `#function` names an accessor by its bare name (`weather`) and a
    /// function by its signature, where the key's name stands instead.
    static func accessorName(_ accessor: StaticString, of key: any SingletonKey.Type) -> String {
        let name = "\(accessor)"
        return name.contains("(") ? key.name : name
    }
}
