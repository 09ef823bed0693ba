import GNSSLocation
import GNSSProtocol
import Glibc
import SingletonRegistry
import TestSupport
import Testing

@Suite(.hangBound) struct TCPTransportTests {
    @Test func receivesLinesInOrderThenEndOfFile() async throws {
        let server = try LoopbackPeer()
        let channel = try ByteChannel.open(.tcp(host: "127.0.0.1", port: server.port))
        let peer = try server.accept()
        var events = EventCollector(ByteReader(channel: channel, chunkSize: 7))
        let lines = (0..<50).map { #"{"class":"TPV","mode":3,"lat":\#($0).5}"# + "\r\n" }
        try writeAll(peer, lines.joined())
        close(peer)
        let (bytes, end) = await events.untilEnd()
        #expect(String(decoding: bytes, as: UTF8.self) == lines.joined())
        #expect(end == .endOfFile)
    }

    @Test func writesRequestsToThePeer() throws {
        let server = try LoopbackPeer()
        let channel = try ByteChannel.open(.tcp(host: "127.0.0.1", port: server.port))
        let peer = try server.accept()
        defer { close(peer) }
        try channel.write(GPSDRequest.enableWatch)
        try channel.write(GPSDRequest.disableWatch)
        let expected = GPSDRequest.enableWatch + GPSDRequest.disableWatch
        #expect(readBytes(peer, count: expected.count) == expected)
    }

    @Test func writeToClosedPeerThrowsInsteadOfKilling() async throws {
        let server = try LoopbackPeer()
        let channel = try ByteChannel.open(.tcp(host: "127.0.0.1", port: server.port))
        var events = EventCollector(ByteReader(channel: channel))
        close(try server.accept())
        // Wait for the close to arrive, then keep writing: the first write may still be accepted locally, a later
        // one must fail with EPIPE or ECONNRESET rather than raise SIGPIPE.
        #expect(await events.untilEnd().end == .endOfFile)
        var failure: SourceError?
        for _ in 0..<20 where failure == nil {
            failure = sourceError { () throws(SourceError) in try channel.write(GPSDRequest.enableWatch) }
        }
        let error = try #require(failure)
        #expect(error.operation == .write)
        #expect([EPIPE, ECONNRESET].contains(error.errorNumber ?? 0))
        #expect(error.description.hasPrefix("cannot write to 127.0.0.1:\(server.port): "))
    }

    @Test func refusedConnectionNamesTheServer() throws {
        let server = try LoopbackPeer(listening: false)
        let error = try #require(
            sourceError { () throws(SourceError) in try ByteChannel.open(.tcp(host: "127.0.0.1", port: server.port)) })
        #expect(error.operation == .connect)
        #expect(error.errorNumber == ECONNREFUSED)
        #expect(error.description == "cannot connect to 127.0.0.1:\(server.port): Connection refused")
    }

    @Test func connectsOverIPv6LoopbackOrNamesTheFailure() throws {
        // `localhost` may resolve to ::1 first; either address family must work or fail cleanly.
        let server = try LoopbackPeer()
        let channel = try ByteChannel.open(.tcp(host: "localhost", port: server.port))
        close(try server.accept())
        #expect(channel.source.description == "localhost:\(server.port)")
        #expect(ByteSource.tcp(host: "::1", port: 2947).description == "[::1]:2947")
    }

    @Test func connectGivesUpAtTheTimeout() throws {
        // A listener whose accept queue is full drops further SYNs, so connecting hangs until our deadline.
        let server = try LoopbackPeer(backlog: 0)
        var held: [ByteChannel] = []
        var timedOut: SourceError?
        for _ in 0..<16 where timedOut == nil {
            let start = ContinuousClock.now
            do throws(SourceError) {
                held.append(
                    try ByteChannel.open(.tcp(host: "127.0.0.1", port: server.port), connectTimeout: .milliseconds(300))
                )
            } catch {
                timedOut = error
                #expect(ContinuousClock.now - start >= .milliseconds(300))
                #expect(ContinuousClock.now - start < .seconds(10))
            }
        }
        let error = try #require(timedOut)
        #expect(error.errorNumber == ETIMEDOUT)
        #expect(error.description.hasPrefix("cannot connect to 127.0.0.1:\(server.port): timed out after"))
    }

    @Test func stopEndsAReaderBlockedOnAnIdleConnection() async throws {
        let server = try LoopbackPeer()
        let channel = try ByteChannel.open(.tcp(host: "127.0.0.1", port: server.port))
        let peer = try server.accept()
        defer { close(peer) }
        let reader = ByteReader(channel: channel)
        var events = EventCollector(reader)
        try writeAll(peer, "x")
        #expect(await events.bytes(count: 1) == [UInt8(ascii: "x")])
        // The reader is now back in poll(2), which has no timeout: only the wake-up pipe can end it (without it,
        // the wait below would last until the suite's time limit fails the test).
        reader.stop()
        #expect(await events.untilEnd().end == .stopped)
        reader.stop()
    }

    @Test func stopBeforeStartFinishesAtOnce() async throws {
        let server = try LoopbackPeer()
        let channel = try ByteChannel.open(.tcp(host: "127.0.0.1", port: server.port))
        let reader = ByteReader(channel: channel)
        reader.stop()
        var events = EventCollector(reader)
        #expect(await events.untilEnd().end == .stopped)
    }

    @Test func endingTheStreamStopsTheReaderAndClosesTheSocket() async throws {
        let server = try LoopbackPeer()
        let peer: Int32
        do {
            let channel = try ByteChannel.open(.tcp(host: "127.0.0.1", port: server.port))
            peer = try server.accept()
            try writeAll(peer, "hello\n")
            for await event in ByteReader(channel: channel).events() {
                if case .data = event { break }
            }
        }
        defer { close(peer) }
        // Once the reader thread is gone nothing holds the channel, so the peer sees the connection close.
        #expect(readBytes(peer, count: 1, timeoutMs: 5_000) == [])
        var pfd = pollfd(fd: peer, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pfd, 1, 0) == 1)
    }
}
