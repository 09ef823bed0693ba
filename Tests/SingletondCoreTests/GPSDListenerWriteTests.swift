import Glibc
import Testing

@testable import SingletondCore

/// How the gpsd listener writes a client's backlog: a write takes many lines, not one. A write per line cost a system
/// call per line and client: in the flood beside gpsd (`Benchmarks/flood-vs-gpsd.sh`) the listener's thread fell
/// behind on them on a loaded machine, and watchers that read lost up to a quarter of their reports.
@Suite struct GPSDListenerWriteTests {
    /// The sizes of the records waiting on `fd`, a `SOCK_SEQPACKET` socket: one record per write of its peer.
    static func records(on fd: Int32) -> [Int] {
        var sizes: [Int] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 18)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { return sizes }
            sizes.append(count)
        }
    }

    /// Runs `body` with a client of the listener on one end of a connected socket pair of `type`, a handler whose
    /// clients queue at most `queued` bytes, and the other end, which the test reads; closes the pair after.
    static func withClient(
        _ type: __socket_type, queued: Int,
        _ body: (inout GPSDListenerClient, GPSDListenerHandler, _ peer: Int32) throws -> Void
    ) throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(type.rawValue), 0, &pair) == 0)
        defer {
            close(pair[0])
            close(pair[1])
        }
        let limits = ClientLimits(maximumQueuedBytes: queued)
        let handler = GPSDListenerHandler(address: ListenAddress(port: 2947), devicePath: "demo", limits: limits)
        var client = GPSDListenerClient(fd: pair[0], now: .zero)
        try body(&client, handler, pair[1])
    }

    @Test func aBacklogOfAHundredLinesGoesOutInTwoWrites() throws {
        try Self.withClient(SOCK_SEQPACKET, queued: 1 << 20) { client, handler, peer in
            let line = [UInt8](repeating: UInt8(ascii: "x"), count: 99) + [0x0A]
            for _ in 0..<100 { #expect(client.enqueue(line, limit: handler.limits.maximumQueuedBytes) == 0) }
            handler.flush(&client)
            #expect(client.closeReason == nil)
            #expect(!client.hasOutput, "everything written")
            // 64 lines (the most one write takes), then the other 36.
            #expect(Self.records(on: peer) == [6_400, 3_600])
        }
    }

    @Test func aWriteTheKernelTakesInPartGoesOnFromTheFirstByteItDidNotTake() throws {
        try Self.withClient(SOCK_STREAM, queued: 8 << 20) { client, handler, peer in
            // 20,000 numbered lines of 7 to 11 bytes: more than the socket holds, so writes end part way through a
            // line.
            var sent: [UInt8] = []
            for index in 0..<20_000 {
                let line = Array("#\(index)\r\n".utf8)
                sent += line
                #expect(client.enqueue(line, limit: handler.limits.maximumQueuedBytes) == 0)
            }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while client.hasOutput {
                handler.flush(&client)
                try #require(client.closeReason == nil)
                while true {
                    let count = recv(peer, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    guard count > 0 else { break }
                    received += buffer[..<count]
                }
            }
            // Compared here, not by `#expect(received == sent)`, whose failure would diff two arrays of 180 KB on a
            // pool thread for minutes.
            let outOfPlace = received.indices.first { $0 >= sent.count || received[$0] != sent[$0] }
            #expect(received.count == sent.count, "every byte once")
            #expect(outOfPlace == nil, "in order: the first byte out of place is at \(outOfPlace ?? -1)")
        }
    }
}
