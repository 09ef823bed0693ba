import Glibc
import SingletonRegistryTesting
import TestSupport
import Testing

@testable import SingletondCore

/// The output file: created 0640, and never reached through a symbolic link that another user planted.
@Suite struct FixOutputFileTests {
    static let logger = LogWriter(minimumLevel: .error, journalFormat: false, fd: -1)

    @Test func aNewOutputFileIsCreated0640() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("tpv.jsonl")
        let output = try FixOutput(path: path, logger: Self.logger, clock: TestClock())
        await output.close()
        var info = stat()
        try #require(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o640 & ~Self.umask())
    }

    @Test(.root) func aSymbolicLinkOwnedByAnotherUserIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.file("chosen-by-nobody")
        let link = directory.file("tpv.jsonl")
        try #require(symlink(target, link) == 0)
        try #require(lchown(link, 65_534, 65_534) == 0)
        #expect(throws: OutputError.self) { try FixOutput(path: link, logger: Self.logger, clock: TestClock()) }
        do {
            _ = try FixOutput(path: link, logger: Self.logger, clock: TestClock())
        } catch {
            #expect(
                error.reason
                    == "it is a symbolic link owned by uid 65534, neither this daemon's user nor root; refusing to follow it"
            )
        }
        #expect(access(target, F_OK) != 0, "nothing was created where the link points")
    }

    @Test func aSymbolicLinkOwnedByTheDaemonsUserIsFollowed() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.file("real.jsonl")
        let link = directory.file("tpv.jsonl")
        try #require(symlink(target, link) == 0)
        let output = try FixOutput(path: link, logger: Self.logger, clock: TestClock())
        output.write(Array("{}\n".utf8))
        await output.close()
        #expect(access(target, F_OK) == 0)
    }

    /// The process's umask, read from `/proc/self/status` rather than set and restored: setting it would change the
    /// mode of files that tests running in parallel create meanwhile.
    static func umask() -> mode_t {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        return line.flatMap { mode_t($0.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) }
            ?? 0o022
    }
}
