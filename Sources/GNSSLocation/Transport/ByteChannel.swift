import Glibc
import SingletonRegistry
import Synchronization

/// An open ``ByteSource``: owns its file descriptor and closes it when the last reference goes.
///
/// Read it with a ``ByteReader``; ``write(_:timeout:)`` may be called from any thread meanwhile.
public final class ByteChannel: Sendable {
    /// What this channel reads.
    public let source: ByteSource
    /// The file descriptor, valid while the channel exists; never close it yourself.
    public let fileDescriptor: Int32
    private let ownsDescriptor: Bool
    private let isSocket: Bool
    private let writeLock = ObservedMutex(())

    private init(source: ByteSource, fileDescriptor: Int32, ownsDescriptor: Bool, isSocket: Bool) {
        self.source = source
        self.fileDescriptor = fileDescriptor
        self.ownsDescriptor = ownsDescriptor
        self.isSocket = isSocket
    }

    deinit {
        if ownsDescriptor { Glibc.close(fileDescriptor) }
    }

    /// Opens a source: connects to a TCP server (giving up after `connectTimeout`), opens a file or FIFO, takes
    /// standard input, or opens and configures a serial device. Blocks the calling thread for at most
    /// `connectTimeout` (name resolution aside); call it off any actor.
    public static func open(_ source: ByteSource, connectTimeout: Duration = .seconds(5)) throws(SourceError)
        -> ByteChannel
    {
        switch source {
        case .tcp(let host, let port):
            let fd = try TCPConnector.connect(host: host, port: port, timeout: connectTimeout)
            return ByteChannel(source: source, fileDescriptor: fd, ownsDescriptor: true, isSocket: true)
        case .file(let path):
            let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw SourceError(.open, source: path, errorNumber: errno) }
            var info = stat()
            if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                Glibc.close(fd)
                throw SourceError(.open, source: path, errorNumber: EISDIR)
            }
            return ByteChannel(source: source, fileDescriptor: fd, ownsDescriptor: true, isSocket: false)
        case .standardInput:
            return ByteChannel(source: source, fileDescriptor: STDIN_FILENO, ownsDescriptor: false, isSocket: false)
        case .serial(let path, let baud):
            let fd = try SerialPort.open(path: path, baud: baud)
            return ByteChannel(source: source, fileDescriptor: fd, ownsDescriptor: true, isSocket: false)
        }
    }

    /// The baud rates ``ByteSource/serial(path:baud:)`` accepts: 4800 to 921600.
    public static var supportedBaudRates: [Int] { SerialPort.supportedBaudRates.map(\.rate) }

    /// Writes all of `bytes`, waiting at most `timeout` each time the peer accepts nothing more (the kernel times
    /// the wait); concurrent writes do not interleave. A write to a closed TCP peer throws (it never raises SIGPIPE).
    public func write(_ bytes: [UInt8], timeout: Duration = .seconds(5)) throws(SourceError) {
        try writeLock.withLock { (_: inout ()) throws(SourceError) in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { raw in
                    let start = raw.baseAddress! + offset
                    let count = raw.count - offset
                    return isSocket
                        ? send(fileDescriptor, start, count, Int32(MSG_NOSIGNAL))
                        : Glibc.write(fileDescriptor, start, count)
                }
                if written >= 0 {
                    offset += written
                    continue
                }
                let code = errno
                guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                    throw SourceError(.write, source: source.description, errorNumber: code)
                }
                if code == EINTR { continue }
                var pfd = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                var ready = poll(&pfd, 1, PollTimeout.milliseconds(timeout))
                while ready < 0, errno == EINTR { ready = poll(&pfd, 1, PollTimeout.milliseconds(timeout)) }
                guard ready != 0 else {
                    throw SourceError(
                        .write, source: source.description, errorNumber: ETIMEDOUT, reason: "timed out after \(timeout)"
                    )
                }
            }
        }
    }
}
