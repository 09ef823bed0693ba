import Foundation
import TestSupport
import Testing

/// The control socket belongs to the daemon's user: mode 0600, another user cannot connect, and one who could is refused.
extension SingletondFaultTests {
    /// The user and group the second-user check runs as (`nobody`).
    private static let otherID = 65_534
    private static var setpriv: String { Machine.path(of: "setpriv") ?? "/usr/bin/setpriv" }

    /// Runs the daemon's binary as ``otherID`` through `setpriv`: its exit status and standard error.
    private func runAsOtherUser(_ arguments: [String]) async throws -> (status: ProcessExit, stderr: [String]) {
        let binary = try #require(SingletondProcess.binary)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = nil
        let child = try ChildProcess(
            Self.setpriv,
            ["--reuid=\(Self.otherID)", "--regid=\(Self.otherID)", "--clear-groups", binary] + arguments,
            environment: environment, stdout: .pipe, stderr: .pipe)
        defer { child.kill() }
        async let out = child.stdout.rest()
        async let err = child.stderr.rest()
        let (_, stderr) = await (out, err)
        return (await child.wait(), stderr)
    }

    /// Starts the daemon with its control socket in a directory that another user may enter, so that only the
    /// socket's own mode keeps them out; returns the daemon and the socket's path.
    private func daemonWithOpenDirectory(_ directory: TemporaryDirectory) async throws -> (SingletondProcess, String) {
        try #require(chmod(directory.path, 0o755) == 0)
        let control = directory.file("c.sock")
        let daemon = try SingletondProcess(["--control", control, "--output", "/dev/null"])
        try #require(await daemon.stderr.line(containing: "ready:") != nil, "\(daemon.stderr.history)")
        return (daemon, control)
    }

    @Test func theSocketIsPrivate() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, control) = try await daemonWithOpenDirectory(directory)
        defer { daemon.kill() }
        var info = stat()
        try #require(stat(control, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o7777 == 0o600)
        #expect(info.st_uid == getuid())
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }

    @Test(.requires([Requirement.root, .tool("setpriv", package: "util-linux")]))
    func anotherUserCannotConnect() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (daemon, control) = try await daemonWithOpenDirectory(directory)
        defer { daemon.kill() }
        let probe = try await runAsOtherUser(["--version"])
        let binary = SingletondProcess.binary ?? "singletond"
        #expect(
            probe.status == .exited(0),
            "uid \(Self.otherID) cannot run \(binary) (is a directory on its path closed to it?): \(probe.stderr)")
        guard probe.status == .exited(0) else { return }

        let refused = try await runAsOtherUser(["status", "--control", control])
        #expect(refused.status == .exited(1))
        #expect(
            refused.stderr.contains { $0.contains("cannot connect to \(control): Permission denied") },
            "\(refused.stderr)")

        // With the mode opened up, the same user connects, and the daemon's check of who is calling refuses them.
        try #require(chmod(control, 0o666) == 0)
        let connected = try await runAsOtherUser(["status", "--control", control])
        #expect(connected.status == .exited(1))
        #expect(
            connected.stderr.contains {
                $0.contains("the daemon says: not allowed: this daemon serves uid 0 and root only")
            },
            "\(connected.stderr)")
        daemon.signal(SIGTERM)
        #expect(await daemon.exitStatus() == 0)
    }

    /// As root, `--control` through a link `nobody` planted to root's 0700 directory; the daemon exits 1
    /// naming the link, and nothing is created where it points.
    @Test(.root) func aControlPathThroughAnotherUsersLinkEndsTheStart() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let secret = directory.file("secret")
        let link = directory.file("link")
        try #require(mkdir(secret, 0o700) == 0 && symlink(secret, link) == 0)
        try #require(lchown(link, uid_t(Self.otherID), gid_t(Self.otherID)) == 0)
        let result = try await SingletondProcess.run(["--control", link + "/c.sock", "--output", "/dev/null"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains {
                $0.contains(
                    "control socket \(link)/c.sock: \(link) is a symbolic link owned by uid 65534, neither this "
                        + "daemon's user nor root; refusing to follow it")
            }, "\(result.stderr)")
        #expect(access(secret + "/c.sock", F_OK) != 0, "nothing was created in root's directory")
    }
}
