/// Where GNSS bytes come from: a gpsd server, a file or FIFO, standard input, or a serial receiver.
package enum ByteSource: Sendable, Hashable, CustomStringConvertible {
    /// A TCP server, usually gpsd on port 2947; `host` is a name or an IPv4 or IPv6 address.
    case tcp(host: String, port: UInt16)
    /// A regular file, a FIFO or a device read as it is (no terminal settings are changed).
    case file(path: String)
    /// The process's standard input (file descriptor 0), which is never closed.
    case standardInput
    /// A serial receiver: the terminal device is opened exclusively and set to raw 8N1 at `baud` bits per second.
    case serial(path: String, baud: Int)

    /// The default gpsd port.
    package static let gpsdPort: UInt16 = 2947

    /// How error messages name the source: `127.0.0.1:2947`, `[::1]:2947`, `/dev/ttyUSB0` or `standard input`.
    package var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .file(let path), .serial(let path, _): path
        case .standardInput: "standard input"
        }
    }
}
