import Glibc
import TestSupport
import Testing

@testable import SingletondCore

/// The default control socket's directory without `$XDG_RUNTIME_DIR` is private: made 0700 by the daemon, and one
/// that another user made first, a link, or a directory others may enter is refused.
@Suite struct ControlPathTests {
    @Test func theDaemonMakesTheDirectory0700() throws {
        let base = TemporaryDirectory()
        defer { base.remove() }
        let directory = base.file("singletond-0")
        #expect(ControlPath.checkPrivate(directory, create: true) == nil)
        var info = stat()
        try #require(lstat(directory, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(ControlPath.checkPrivate(directory, create: false) == nil, "the client accepts it")
    }

    @Test func aMissingDirectoryIsNoProblemForTheClient() {
        #expect(ControlPath.checkPrivate("/nonexistent/singletond-0", create: false) == nil)
    }

    @Test func aDirectoryOthersMayEnterIsRefused() throws {
        let base = TemporaryDirectory()
        defer { base.remove() }
        let directory = base.file("singletond-0")
        try #require(mkdir(directory, 0o700) == 0 && chmod(directory, 0o755) == 0)
        #expect(
            ControlPath.checkPrivate(directory, create: true)
                == "\(directory) has mode 755; it must be 700 (chmod 700 it)")
    }

    @Test func aLinkIsRefused() throws {
        let base = TemporaryDirectory()
        defer { base.remove() }
        let directory = base.file("singletond-0")
        try #require(symlink(base.path, directory) == 0)
        #expect(ControlPath.checkPrivate(directory, create: true)?.contains("is not a directory") == true)
    }

    @Test(.root) func aDirectoryAnotherUserMadeFirstIsRefused() throws {
        let base = TemporaryDirectory()
        defer { base.remove() }
        let directory = base.file("singletond-0")
        try #require(mkdir(directory, 0o700) == 0 && chown(directory, 65_534, 65_534) == 0)
        let problem = ControlPath.checkPrivate(directory, create: true)
        #expect(problem?.hasPrefix("\(directory) belongs to uid 65534, not to you") == true, "\(problem ?? "nil")")
    }

    /// A stale socket file of another user is neither trusted nor removed.
    @Test(.root) func aStaleSocketOfAnotherUserIsLeftAlone() throws {
        let base = TemporaryDirectory()
        defer { base.remove() }
        let path = base.file("c.sock")
        let fd = try UnixSocket.make(Int32(SOCK_STREAM.rawValue)).get()
        _ = UnixSocket.withAddress(path) { address, length in bind(fd, address, length) }
        close(fd)
        try #require(lchown(path, 65_534, 65_534) == 0)
        #expect(throws: ControlServerError.self) {
            try ControlServer.bind(
                path: path, logger: LogWriter(minimumLevel: .error, journalFormat: false, clock: ContinuousClock()),
                clock: ContinuousClock())
        }
        #expect(access(path, F_OK) == 0, "another user's file is never removed")
    }

    static let logger = LogWriter(minimumLevel: .error, journalFormat: false, clock: ContinuousClock())

    /// Binds the control socket at `path`: the error's reason, or `nil` when it was bound (and is stopped again).
    static func bindRefusal(_ path: String) async -> String? {
        do {
            let server = try ControlServer.bind(path: path, logger: logger, clock: ContinuousClock())
            await server.stop()
            return nil
        } catch {
            return error.reason
        }
    }

    /// `nobody` owns a directory of the path, and could rename the socket and put another in its place.
    @Test(.root) func aControlPathInADirectoryAnotherUserOwnsIsRefused() async throws {
        let base = TemporaryDirectory()
        defer { base.remove() }
        let (shared, _) = try FixOutputFileTests.sharedAndSecretDirectories(in: base)
        #expect(
            await Self.bindRefusal(shared + "/c.sock")
                == "\(shared) belongs to uid 65534, neither this daemon's user nor root; refusing to use it")
        #expect(access(shared + "/c.sock", F_OK) != 0, "nothing was created there")
    }

    /// `nobody` links a directory of the path to root's 0700 directory.
    @Test(.root) func aControlPathThroughALinkAnotherUserOwnsIsRefused() async throws {
        let base = TemporaryDirectory()
        defer { base.remove() }
        let (_, secret) = try FixOutputFileTests.sharedAndSecretDirectories(in: base)
        let link = base.file("link")
        try #require(symlink(secret, link) == 0 && lchown(link, 65_534, 65_534) == 0)
        #expect(
            await Self.bindRefusal(link + "/c.sock")
                == "\(link) is a symbolic link owned by uid 65534, neither this daemon's user nor root; "
                + "refusing to follow it")
        #expect(access(secret + "/c.sock", F_OK) != 0, "nothing was created in root's directory")
    }

    @Test func aControlPathInADirectoryEveryUserMayWriteIsRefusedUnlessItIsSticky() async throws {
        let base = TemporaryDirectory()
        defer { base.remove() }
        let open = base.file("open")
        try #require(mkdir(open, 0o700) == 0 && chmod(open, 0o777) == 0)
        #expect(
            await Self.bindRefusal(open + "/c.sock")
                == "\(open) may be written by every user (mode 777, without the sticky bit); refusing to use it")
        try #require(chmod(open, 0o1777) == 0)
        #expect(await Self.bindRefusal(open + "/c.sock") == nil, "a sticky directory, as /tmp is, is used")
    }

    @Test func aLinkTheDaemonsUserOwnsOnTheControlPathIsFollowed() async throws {
        let base = TemporaryDirectory()
        defer { base.remove() }
        try #require(mkdir(base.file("real"), 0o700) == 0 && symlink(base.file("real"), base.file("link")) == 0)
        #expect(await Self.bindRefusal(base.file("link/c.sock")) == nil)
    }
}
