import Foundation
import TestSupport
import Testing

/// The control socket belongs to the daemon's user: mode 0600, another user cannot connect, and one who could is refused.
extension SingletondFaultTests {
    /// The user and group the second-user check runs as (`nobody`).
    private static let otherID = 65_534
    private static let setpriv = "/usr/bin/setpriv"

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

    /// Where the check cannot run: a message outside CI, a failure under CI (which runs as root with util-linux).
    private func cannotCheckOtherUser(_ reason: String) {
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("the second-user check must run under CI: \(reason)")
        } else {
            print("SingletondFaultTests: skipping the second-user check of the control socket: \(reason)")
        }
    }

    @Test func theSocketIsPrivateAndAnotherUserCannotConnect() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Another user may enter the directory, so that only the socket's own mode keeps them out.
        try #require(chmod(directory.path, 0o755) == 0)
        let control = directory.file("c.sock")
        let daemon = try SingletondProcess(["--control", control, "--output", "/dev/null"])
        defer { daemon.kill() }
        try #require(await daemon.stderr.line(containing: "ready:") != nil, "\(daemon.stderr.history)")
        var info = stat()
        try #require(stat(control, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o7777 == 0o600)
        #expect(info.st_uid == getuid())

        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: Self.setpriv) else {
            cannotCheckOtherUser("it needs root and \(Self.setpriv) (util-linux) to act as uid \(Self.otherID)")
            return
        }
        let probe = try await runAsOtherUser(["--version"])
        guard probe.status == .exited(0) else {
            cannotCheckOtherUser(
                "uid \(Self.otherID) cannot run \(SingletondProcess.binary ?? "singletond") (a directory on its path is "
                    + "closed to it?): \(probe.stderr)")
            return
        }

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
}
