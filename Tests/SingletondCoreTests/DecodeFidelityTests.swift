import Foundation
import TestSupport
import Testing

/// `singletond decode` against gpsd's `gpsdecode`, member by member: the line the project holds (at least 99% of all
/// members and 95% of each agree, epoch by epoch), measured by the same script a developer runs,
/// `scripts/compare-gpsdecode`, on the development logs and on the project's own fixtures.
@Suite(.gpsdTools, .hangBound) struct DecodeFidelityTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/NMEA")
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/compare-gpsdecode").path

    @Test(.sharedSamples) func everyMemberAgreesWithGpsdecodeOnTheDevelopmentLogs() async throws {
        try await Self.expectAgreement(logs: [])
    }

    @Test func everyMemberAgreesWithGpsdecodeOnTheFixtures() async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter {
            $0.hasSuffix(".nmea")
        }
        #expect(names.count >= 2)
        try await Self.expectAgreement(logs: names.sorted().map { Self.fixtures.appendingPathComponent($0).path })
    }

    /// Runs the script on `logs` (its default, the development logs, when empty) and expects it to pass.
    static func expectAgreement(logs: [String]) async throws {
        let binary = try #require(SingletondProcess.binary, "singletond is not built next to the test bundle")
        let python = try #require(Machine.path(of: "python3"), "python3 is missing: apt-get install python3")
        let child = try ChildProcess(
            python, [script, "--binary", binary, "--examples", "2"] + logs, stdout: .pipe, stderr: .pipe)
        async let out = child.stdout.rest(timeout: 150)
        async let err = child.stderr.rest(timeout: 150)
        let (table, verdict) = await (out, err)
        let exit = await child.wait()
        print(table.joined(separator: "\n"))
        #expect(exit == .exited(0), "\(verdict.joined(separator: "\n"))\n\(table.joined(separator: "\n"))")
        #expect(table.last?.hasPrefix("all ") == true, "the script printed its whole table")
    }
}
