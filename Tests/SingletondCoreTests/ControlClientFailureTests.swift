import Glibc
import Testing

@testable import SingletondCore

/// What the client says when the daemon does not serve it: a refusal sent before the client could send its request
/// is printed, and a daemon that takes the request but never answers (stopped, wedged) is given up after the
/// client's timeout, with a message that says so.
@Suite struct ControlClientFailureTests {
    @Test func aRefusalSentBeforeTheRequestIsPrinted() throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let errors = try CapturedErrors()
        // The daemon's side: the refusal, then close, before the client has sent anything.
        let refusal = #"{"class":"ERROR","message":"too many clients (64); try again later"}"# + "\n"
        #expect(write(ends[1], refusal, refusal.utf8.count) == refusal.utf8.count)
        close(ends[1])

        var client = ControlClient(path: "/run/singletond.sock")
        client.errorOutput = errors.fd
        let status = client.single(.status, on: ControlClient.Connection(fd: ends[0]))
        #expect(status == 1)
        #expect(
            errors.text()
                == "singletond: the daemon says: too many clients (64); try again later\n")
    }

    @Test func aDaemonThatNeverAnswersIsGivenUpAfterTheTimeout() throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { close(ends[1]) }
        let errors = try CapturedErrors()

        var client = ControlClient(path: "/run/singletond.sock", timeout: .milliseconds(100))
        client.errorOutput = errors.fd
        let connection = ControlClient.Connection(fd: ends[0])
        connection.limitWaits(to: client.timeout)
        // The daemon's side stays open and says nothing, as a stopped daemon's socket does.
        let status = client.single(.status, on: connection)
        #expect(status == 1)
        #expect(
            errors.text()
                == "singletond: the daemon at /run/singletond.sock did not answer within 100 ms\n")
    }
}
