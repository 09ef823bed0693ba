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
                path: path, logger: LogWriter(minimumLevel: .error, journalFormat: false), clock: ContinuousClock())
        }
        #expect(access(path, F_OK) == 0, "another user's file is never removed")
    }
}
