import Glibc
import SingletonRegistry
import SystemCalls

/// An open ``ByteSource``: owns its file descriptor and closes it when the last reference goes.
///
/// Read it with a ``ByteReader``; ``write(_:timeout:)`` may be called from any thread meanwhile.
package final class ByteChannel: Sendable {
    /// What this channel reads.
    package let source: ByteSource
    /// The file descriptor, valid while the channel exists; never close it yourself.
    package let fileDescriptor: Int32
    private let ownsDescriptor: Bool
    private let isSocket: Bool
    private let writeLock = SanitizerVisibleMutex(())

    private init(source: ByteSource, fileDescriptor: Int32, ownsDescriptor: Bool, isSocket: Bool) {
        self.source = source
        self.fileDescriptor = fileDescriptor
        self.ownsDescriptor = ownsDescriptor
        self.isSocket = isSocket
    }

    deinit {
        if ownsDescriptor { System.close(fileDescriptor) }
    }

    /// Opens a source: connects to a TCP server (giving up after `connectTimeout`), opens a file or FIFO, takes
    /// standard input, or opens and configures a serial device. Blocks the calling thread for at most
    /// `connectTimeout` (name resolution aside); call it off any actor.
    package static func open(_ source: ByteSource, connectTimeout: Duration = .seconds(5)) throws(SourceError)
        -> ByteChannel
    {
        switch source {
        case .tcp(let host, let port):
            let fd = try TCPConnector.connect(host: host, port: port, timeout: connectTimeout)
            return ByteChannel(source: source, fileDescriptor: fd, ownsDescriptor: true, isSocket: true)
        case .file(let path):
            let fd: Int32
            do {
                fd = try System.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            } catch {
                throw SourceError(.open, source: path, errorNumber: error.code)
            }
            if let info = try? System.status(of: fd), info.st_mode & S_IFMT == S_IFDIR {
                System.close(fd)
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
    package static var supportedBaudRates: [Int] { SerialPort.supportedBaudRates.map(\.rate) }

    /// Writes all of `bytes`, waiting at most `timeout` each time the peer accepts nothing more; concurrent writes
    /// do not interleave. A write to a closed TCP peer throws (it never raises SIGPIPE).
    package func write(_ bytes: [UInt8], timeout: Duration = .seconds(5)) throws(SourceError) {
        try writeLock.withLock { (_: inout ()) throws(SourceError) in
            let written: Int
            do throws(Errno) {
                written = try System.writeAll(fileDescriptor, bytes, socket: isSocket, waitingForRoom: timeout)
            } catch {
                throw SourceError(.write, source: source.description, errorNumber: error.code)
            }
            guard written == bytes.count else {
                throw SourceError(
                    .write, source: source.description, errorNumber: ETIMEDOUT, reason: "timed out after \(timeout)"
                )
            }
        }
    }
}
