import SingletonRegistry
import SingletonRegistryTesting
import Testing

/// An issue the registry records in a test is headed by the sentence that says what happened, and points at the
/// user's test, not at the library.
@Suite struct IssueReportTests {
    /// A key that declares no test value.
    enum UndeclaredKey: SingletonKey { static var liveValue: String { "live" } }

    @RegistryActor
    static func read<Key: SingletonKey>(_ key: Key.Type) -> Key.Value { appSingletons[key] }

    @Test func aMissingTestValueIsReportedAtTheTestWithTheSentenceFirst() async {
        await withKnownIssue {
            #expect(await Self.read(UndeclaredKey.self) == "live")
        } matching: { issue in
            "\(issue.kind)".hasPrefix("Caught error: appSingletons.undeclared was read in test")
                && issue.sourceLocation?.fileID.hasSuffix("IssueReportTests.swift") == true
                && issue.sourceLocation == Test.current?.sourceLocation
        }
    }
}
