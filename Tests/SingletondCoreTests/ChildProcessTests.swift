import Foundation
import TestSupport
import Testing

/// TestSupport's `ChildProcess`, which every end-to-end test stands on: how a child ended, its signals, its output
/// and a hang's bound.
@Suite(.hangBound) struct ChildProcessTests {
    static let shell = "/bin/sh"

    @Test func anExitCodeAndASignalReadAsTheyHappened() async throws {
        let exited = try ChildProcess(Self.shell, ["-c", "exit 3"])
        #expect(await exited.wait() == .exited(3))
        #expect(exited.status?.shellCode == 3)
        #expect(!exited.isRunning)

        let signalled = try ChildProcess(Self.shell, ["-c", "kill -TERM $$"])
        #expect(await signalled.wait() == .signalled(SIGTERM))
        #expect(signalled.status?.shellCode == 128 + SIGTERM)
    }

    /// The test runner blocks SIGTERM in its threads; a child that inherited that mask would ignore `terminate()`.
    @Test func terminateEndsAChildWhateverTheTestThreadBlocks() async throws {
        let child = try ChildProcess(Self.shell, ["-c", "echo started; exec sleep 600"], stdout: .pipe)
        #expect(await child.stdout.nextLine() == "started")
        #expect(await child.terminateAndWait() == .signalled(SIGTERM))
    }

    /// The bound is what is tested here: a child that never ends is killed (with its group) and reads so.
    @Test func aHangIsKilledAtTheBound() async throws {
        let child = try ChildProcess(Self.shell, ["-c", "echo started; exec sleep 600"], stdout: .pipe)
        #expect(await child.stdout.nextLine() == "started")
        #expect(await child.wait(hangBound: .milliseconds(100)) == .signalled(SIGKILL))
    }

    @Test func outputIsPipedOrKeptAndTheTemporaryDirectoryIsItsOwn() async throws {
        let child = try ChildProcess(
            Self.shell, ["-c", "echo \"$TMPDIR\"; echo oops >&2; exit 1"], stdout: .pipe, stderr: .kept,
            ownTemporaryDirectory: true)
        let directory = try #require(await child.stdout.nextLine())
        #expect(directory.hasPrefix("/tmp/sdt-"))
        #expect(await child.wait() == .exited(1))
        #expect(child.errorOutput == "oops\n")
    }
}
