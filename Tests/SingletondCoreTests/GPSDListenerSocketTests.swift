import Foundation
import SingletondCore
import TestSupport
import Testing

/// The gpsd listener's client sockets: `TCP_NODELAY`, and a small send buffer, so that a client that does not read
/// loses reports from the listener's bounded queue (and is told) instead of getting them late from the kernel's.
@Suite(.hangBound) struct GPSDListenerSocketTests {
    /// An integer option of socket `fd`.
    static func option(_ fd: Int32, level: Int32, name: Int32) -> Int32 {
        var value: Int32 = -1
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, level, name, &value, &length)
        return value
    }

    @Test func everyClientSocketHasNoDelayAndASmallSendBuffer() async throws {
        try await GPSDListenerServiceTests.withService { service, port in
            let client = try #require(StreamClient(port: port))
            #expect(await client.readLine(containing: "\"class\":\"VERSION\"") != nil)
            let sockets = try #require(service.listener?.clientSockets)
            #expect(sockets.count == 1)
            for fd in sockets {
                #expect(Self.option(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY) != 0)
                #expect(Self.option(fd, level: SOL_SOCKET, name: SO_SNDBUF) <= 64 * 1_024)
            }
        }
    }

    /// 20,000 reports of 100 bytes (2 MB) for a client that does not read: what it reads afterwards, up to the last
    /// report, is bounded by its queue and the small kernel buffers, far fewer than were published, and it is told
    /// how many it lost.
    @Test func aClientThatDoesNotReadGetsFewOfManyReportsAndIsToldOfTheRest() async throws {
        try await GPSDListenerServiceTests.withService(limits: ClientLimits(maximumQueuedBytes: 8 * 1_024)) {
            service, port in
            let slow = try #require(StreamClient(port: port, receiveBuffer: 4_096))
            slow.send("?WATCH={\"enable\":true,\"json\":true}\n")
            #expect(await slow.readLine(containing: "\"class\":\"WATCH\"") != nil)
            let listener = try #require(service.listener)
            let count = 20_000
            for index in 0..<count {
                let object =
                    "{\"class\":\"TPV\",\"index\":\(index),\"pad\":\"" + String(repeating: "x", count: 60) + "\"}"
                listener.publish(.tpv(Array(object.utf8)))
            }
            #expect(listener.statistics.droppedReports > 0)
            var reports = 0
            var notices = 0
            while let line = await slow.readLine() {
                if line.contains("singletond dropped") { notices += 1 }
                guard line.contains("\"class\":\"TPV\"") else { continue }
                reports += 1
                if line.contains("\"index\":\(count - 1),") { break }
            }
            #expect(notices >= 1, "told how many it lost")
            #expect(reports < count / 10, "read \(reports) of \(count): the kernel held few")
        }
    }
}
