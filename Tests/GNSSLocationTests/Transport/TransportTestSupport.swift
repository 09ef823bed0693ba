import GNSSLocation
import Glibc
import SingletonRegistry
import Testing

/// Reads from a descriptor until `count` bytes arrived or it stays silent for `timeoutMs`.
func readBytes(_ fd: Int32, count: Int, timeoutMs: Int32 = 5_000) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while out.count < count {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, timeoutMs) == 1 else { break }
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, count - out.count)) }
        guard n > 0 else { break }
        out += buffer[0..<n]
    }
    return out
}

/// Pulls events from a reader's stream: bytes up to a count, or everything up to the end.
struct EventCollector {
    private var iterator: ByteReaderEvents.AsyncIterator
    private(set) var end: ByteReaderEnd?

    init(_ reader: ByteReader, bufferLimit: Int = 64) {
        iterator = reader.events(bufferLimit: bufferLimit).makeAsyncIterator()
    }

    /// Collects data until at least `count` bytes arrived or the reader finished.
    mutating func bytes(count: Int) async -> [UInt8] {
        var out: [UInt8] = []
        while out.count < count, end == nil, let event = await iterator.next() {
            switch event {
            case .data(let chunk): out += chunk
            case .finished(let why): end = why
            }
        }
        return out
    }

    /// Collects data until the reader finishes; returns the bytes and why it ended.
    mutating func untilEnd() async -> (bytes: [UInt8], end: ByteReaderEnd?) {
        let data = await bytes(count: .max)
        return (data, end)
    }
}

/// The error `body` throws, if any.
func sourceError<T>(_ body: () throws(SourceError) -> T) -> SourceError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
