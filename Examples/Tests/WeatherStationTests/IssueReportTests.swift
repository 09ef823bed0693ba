import SingletonRegistry
import SingletonRegistryTesting
import Testing
import WeatherStation

/// What a user sees when the registry reports a problem: the sentence first, at their test; and a detached read
/// reported once, failing no test, whether the test runs alone or beside others.
@Suite struct IssueReportTests {
    /// A key that declares no test value.
    enum UndeclaredKey: SingletonKey { static var liveValue: Int { 7 } }

    @Test func aMissingTestValueIsReportedAtThisTestWithTheSentenceFirst() async {
        await withKnownIssue {
            #expect(await appSingletons.undeclared == 7)
        } matching: { issue in
            "\(issue.kind)".hasPrefix("Caught error: appSingletons.undeclared was read in test")
                && issue.sourceLocation?.fileID.hasSuffix("IssueReportTests.swift") == true
        }
    }

    /// A detached task reads the replaced value: it misses the replacement and names no test, so the read is a
    /// warning for the run and this test passes, alone (`--filter`) as in a full run.
    @Test(.singletons { $0.stationConfiguration = StationConfiguration(name: "escaped", maxTripPoints: 1) })
    func aDetachedReadIsAWarningNotAFailure() async {
        let seen = await Task.detached { await appSingletons.stationConfiguration }.value
        #expect(seen.name != "escaped", "a detached task does not inherit the test's scope")
    }
}

extension AppSingletons {
    /// A value whose key declares no test value.
    var undeclared: Int { self[IssueReportTests.UndeclaredKey.self] }
}
