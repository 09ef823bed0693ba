import GNSSLocation
import Glibc
import SingletonRegistry
import Testing

/// A TCP listener on 127.0.0.1 with a kernel-chosen port, for talking to a ``ByteChannel``.
final class LoopbackServer {
    let listener: Int32
    let port: UInt16

    /// Binds 127.0.0.1:0; `listening: false` leaves the port bound but refusing connections.
    init(listening: Bool = true, backlog: Int32 = 8) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(bound == 0, "bind: \(SourceError.systemMessage(errno))")
        if listening { try #require(listen(fd, backlog) == 0) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(listener) }

    /// Accepts the connection a client has already completed (the kernel finishes the handshake before `accept`).
    func accept() throws -> Int32 {
        let fd = Glibc.accept(listener, nil, nil)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        try #require(fd >= 0, "accept: \(SourceError.systemMessage(errno))")
        return fd
    }
}

/// Writes all bytes to a blocking descriptor.
func writeAll(_ fd: Int32, _ text: String) throws {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        try #require(n > 0, "write: \(SourceError.systemMessage(errno))")
        offset += n
    }
}

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
