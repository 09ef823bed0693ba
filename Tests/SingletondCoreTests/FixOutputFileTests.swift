import Glibc
import SingletonRegistryTesting
import TestSupport
import Testing

@testable import SingletondCore

/// The output file: created 0640, and never reached through a symbolic link that another user planted.
@Suite struct FixOutputFileTests {
    static let logger = LogWriter(minimumLevel: .error, journalFormat: false, fd: -1, clock: ContinuousClock())

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

    /// Issue 25, finding 8: `nobody` links a directory of the path to root's 0700 directory.
    @Test(.root) func aSymbolicLinkAnotherUserOwnsInADirectoryOfThePathIsRefused() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (shared, secret) = try Self.sharedAndSecretDirectories(in: directory)
        let link = shared + "/logs"
        try #require(symlink(secret, link) == 0)
        try #require(lchown(link, 65_534, 65_534) == 0)
        let error = #expect(throws: OutputError.self) {
            try FixOutput(path: link + "/tpv.log", logger: Self.logger, clock: TestClock())
        }
        #expect(
            error?.reason
                == "\(link) is a symbolic link owned by uid 65534, neither this daemon's user nor root; "
                + "refusing to follow it")
        #expect(access(secret + "/tpv.log", F_OK) != 0, "nothing was created in root's directory")
    }

    /// The same link, in the same directory of another user's, is followed when root owns it.
    @Test(.root) func aSymbolicLinkRootOwnsInADirectoryOfThePathIsFollowed() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (shared, secret) = try Self.sharedAndSecretDirectories(in: directory)
        try #require(symlink(secret, shared + "/logs") == 0)
        let output = try FixOutput(path: shared + "/logs/tpv.log", logger: Self.logger, clock: TestClock())
        output.write(Array("{}\n".utf8))
        await output.close()
        var info = stat()
        try #require(lstat(secret + "/tpv.log", &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFREG)
        #expect(info.st_size == 3)
    }

    /// A link the daemon's user owns, in a directory of a relative path, is followed; so is one in the link's
    /// target.
    @Test func symbolicLinksTheDaemonsUserOwnsInDirectoriesAreFollowed() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try #require(mkdir(directory.file("real"), 0o700) == 0)
        try #require(symlink("real", directory.file("inner")) == 0)
        try #require(symlink(directory.path + "/inner/", directory.file("outer")) == 0)
        let output = try FixOutput(path: directory.file("outer//./tpv.log"), logger: Self.logger, clock: TestClock())
        output.write(Array("{}\n".utf8))
        await output.close()
        #expect(access(directory.file("real/tpv.log"), F_OK) == 0)
    }

    /// `shared`, a directory `nobody` owns (mode 0755), and `secret`, root's 0700 directory, both in `directory`.
    static func sharedAndSecretDirectories(in directory: TemporaryDirectory) throws -> (String, String) {
        let shared = directory.file("pub")
        let secret = directory.file("secret")
        try #require(mkdir(shared, 0o755) == 0)
        try #require(chown(shared, 65_534, 65_534) == 0)
        try #require(mkdir(secret, 0o700) == 0)
        return (shared, secret)
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
