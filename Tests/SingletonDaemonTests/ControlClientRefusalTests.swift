import Glibc
import Testing

@testable import SingletonDaemon

/// A daemon that refuses a client (too many clients) answers and closes without reading: the client's request then
/// fails to send, and the client prints the refusal instead of exiting 1 in silence.
@Suite struct ControlClientRefusalTests {
    @Test func aRefusalSentBeforeTheRequestIsPrinted() throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        var pipeEnds: [Int32] = [-1, -1]
        try #require(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]) }
        // The daemon's side: the refusal, then close, before the client has sent anything.
        let refusal = #"{"class":"ERROR","message":"too many clients (64); try again later"}"# + "\n"
        #expect(write(ends[1], refusal, refusal.utf8.count) == refusal.utf8.count)
        close(ends[1])

        var client = ControlClient(path: "/run/singletond.sock")
        client.errorOutput = pipeEnds[1]
        let status = client.single(.status, on: ControlClient.Connection(fd: ends[0]))
        close(pipeEnds[1])
        #expect(status == 1)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = read(pipeEnds[0], &buffer, buffer.count)
        #expect(
            String(decoding: buffer[0..<max(count, 0)], as: UTF8.self)
                == "singletond: the daemon says: too many clients (64); try again later\n")
    }
}
