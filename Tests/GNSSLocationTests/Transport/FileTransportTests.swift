import GNSSLocation
import Glibc
import SingletonRegistry
import TestSupport
import Testing

@Suite(.hangBound) struct FileTransportTests {
    @Test func readsAFileToItsEnd() async throws {
        let path = TemporaryDirectory.uniquePath("log.nmea")
        defer { unlink(path) }
        let content = String(repeating: SerialTransportTests.nmea, count: 200)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        try writeAll(fd, content)
        close(fd)
        var events = EventCollector(ByteReader(channel: try ByteChannel.open(.file(path: path))))
        let (bytes, end) = await events.untilEnd()
        #expect(String(decoding: bytes, as: UTF8.self) == content)
        #expect(end == .endOfFile)
    }

    @Test func aSlowConsumerLosesNothingAndCanStopMidFile() async throws {
        let path = TemporaryDirectory.uniquePath("big.nmea")
        defer { unlink(path) }
        let content = String(repeating: SerialTransportTests.nmea, count: 2_000)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        try writeAll(fd, content)
        close(fd)
        // 16-byte chunks and one chunk of slack: the reader must wait for the consumer, not drop data.
        var all = EventCollector(
            ByteReader(channel: try ByteChannel.open(.file(path: path)), chunkSize: 16), bufferLimit: 1)
        let (bytes, end) = await all.untilEnd()
        #expect(bytes.count == content.utf8.count)
        // Compared by hand: on a failure Swift Testing would diff two arrays of 274,000 bytes, which holds a thread
        // of the pool for many minutes while every other test of the run waits.
        #expect(bytes.elementsEqual(content.utf8), "the bytes read are the file's")
        #expect(end == .endOfFile)

        let reader = ByteReader(channel: try ByteChannel.open(.file(path: path)), chunkSize: 16)
        var some = EventCollector(reader, bufferLimit: 1)
        #expect(await some.bytes(count: 16).count == 16)
        reader.stop()
        let (rest, why) = await some.untilEnd()
        #expect(why == .stopped)
        #expect(rest.count <= 32)
    }

    @Test func aReaderStartsOnlyOnce() async throws {
        let path = TemporaryDirectory.uniquePath("once.nmea")
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        try writeAll(fd, SerialTransportTests.nmea)
        close(fd)
        let reader = ByteReader(channel: try ByteChannel.open(.file(path: path)))
        var first = EventCollector(reader)
        var secondCount = 0
        for await _ in reader.events() { secondCount += 1 }
        #expect(secondCount == 0)
        // The second request neither stole the events nor stopped the first reader.
        let (bytes, end) = await first.untilEnd()
        #expect(bytes == Array(SerialTransportTests.nmea.utf8))
        #expect(end == .endOfFile)
    }

    @Test func readsAFIFOUntilItsWriterCloses() async throws {
        let path = TemporaryDirectory.uniquePath("fifo")
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        // Opened before any writer exists: the reader must wait for one rather than report the end at once.
        var events = EventCollector(ByteReader(channel: try ByteChannel.open(.file(path: path))))
        let writer = open(path, O_WRONLY | O_CLOEXEC)
        try #require(writer >= 0)
        try writeAll(writer, "first\n")
        #expect(await events.bytes(count: 6) == Array("first\n".utf8))
        try writeAll(writer, "second\n")
        close(writer)
        let (bytes, end) = await events.untilEnd()
        #expect(bytes == Array("second\n".utf8))
        #expect(end == .endOfFile)
    }

    @Test func namesAMissingFileOrADirectory() {
        let missing = sourceError { () throws(SourceError) in try ByteChannel.open(.file(path: "/nonexistent/gps.log"))
        }
        #expect(missing?.description == "cannot open /nonexistent/gps.log: No such file or directory")
        let directory = sourceError { () throws(SourceError) in try ByteChannel.open(.file(path: "/tmp")) }
        #expect(directory?.description == "cannot open /tmp: Is a directory")
    }

    @Test func standardInputIsNeverClosed() throws {
        let openBefore = fcntl(STDIN_FILENO, F_GETFD) != -1
        do {
            let channel = try ByteChannel.open(.standardInput)
            #expect(channel.fileDescriptor == STDIN_FILENO)
            #expect(channel.source.description == "standard input")
        }
        #expect((fcntl(STDIN_FILENO, F_GETFD) != -1) == openBefore)
    }
}
