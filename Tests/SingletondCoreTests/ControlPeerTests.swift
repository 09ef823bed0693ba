import Foundation
import Glibc
import SingletonRegistryTesting
import TestSupport
import Testing

@testable import SingletondCore

/// Both ends of the control socket check who is at the other end (`SO_PEERCRED`): the daemon serves its own user
/// and root only, and the client talks only to a daemon of its own user or root. `nobody` plays the other user.
@Suite(.hangBound) struct ControlPeerTests {
    /// The system's Python, which `nobody` can run (unlike a pyenv shim under /root that may come first on the PATH).
    static let python = "/usr/bin/python3"

    /// What playing `nobody` takes: root, util-linux's `setpriv` and the system's Python for the fake peer.
    static let requirements = [
        Requirement.root, .tool("setpriv", package: "util-linux"), .executable(python, package: "python3"),
    ]

    /// Runs `script` with Python as `nobody`, its standard output piped.
    static func asNobody(_ script: String) throws -> ChildProcess {
        let setpriv = try #require(Machine.path(of: "setpriv"), "util-linux's setpriv")
        return try ChildProcess(
            setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", python, "-c", script],
            stdout: .pipe, stderr: .pipe)
    }

    @Test(.requires(ControlPeerTests.requirements)) func theDaemonRefusesAClientOfAnotherUser() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try #require(chmod(directory.path, 0o755) == 0)
        let path = directory.file("c.sock")
        let server = try ControlServer.bind(
            path: path, logger: LogWriter(minimumLevel: .error, journalFormat: false, clock: ContinuousClock()),
            clock: TestClock())
        try server.start { _, requester in requester.send(Array("{\"class\":\"STATUS\"}\n".utf8)) }
        // Past the socket's mode, as a misconfigured --control directory would let them: the check still holds.
        try #require(chmod(path, 0o666) == 0)
        let client = try Self.asNobody(
            """
            import socket
            s = socket.socket(socket.AF_UNIX)
            s.connect("\(path)")
            print(s.recv(4096).decode().strip(), flush=True)
            """)
        let answer = await client.stdout.line(containing: "class", timeout: 60)
        #expect(answer == #"{"class":"ERROR","message":"not allowed: this daemon serves uid 0 and root only"}"#)
        #expect(await client.wait() == .exited(0), "\(client.errorOutput)")
        await server.stop()
    }

    @Test(.requires(ControlPeerTests.requirements)) func theClientRefusesADaemonOfAnotherUser() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try #require(chmod(directory.path, 0o777) == 0)
        let path = directory.file("c.sock")
        // nobody squats the path with a fake daemon that answers every client with a false status.
        let squatter = try Self.asNobody(
            """
            import socket
            s = socket.socket(socket.AF_UNIX)
            s.bind("\(path)")
            s.listen(1)
            print("listening", flush=True)
            c, _ = s.accept()
            c.sendall(b'{"class":"STATUS","fake":true}\\n')
            c.close()
            """)
        defer { squatter.kill() }
        #expect(await squatter.stdout.line(containing: "listening", timeout: 60) != nil, "\(squatter.errorOutput)")
        let errors = try CapturedErrors()
        var client = ControlClient(path: path)
        client.errorOutput = errors.fd
        let status = client.status()
        #expect(status == 1)
        #expect(
            errors.text()
                == "singletond: \(path) is served by uid 65534, neither you nor root; refusing to talk to it "
                + "(another user may be squatting the path)\n")
    }
}
