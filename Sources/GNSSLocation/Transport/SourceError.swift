import SystemCalls

/// A failure to open, configure, read or write a source's file, device or connection, with a message that names the source and the
/// system's reason, for example `cannot open /dev/ttyUSB0: No such file or directory`.
public struct SourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being attempted.
    public enum Operation: String, Sendable, Hashable {
        /// Looking up a host name.
        case resolve
        /// Connecting to a TCP server.
        case connect
        /// Opening a file or device.
        case open
        /// Setting up a device (terminal settings, exclusive access).
        case configure
        /// Reading.
        case read
        /// Writing.
        case write
    }

    /// What was being attempted.
    public var operation: Operation
    /// The source as messages name it: `127.0.0.1:2947`, `[::1]:2947`, `/dev/ttyUSB0` or `standard input`.
    public var source: String
    /// The `errno` value, when the system reported one.
    public var errorNumber: Int32?
    /// The reason: the system's text for `errorNumber`, or an explanation.
    public var reason: String

    /// Creates an error with an explanation of its own.
    public init(_ operation: Operation, source: String, errorNumber: Int32? = nil, reason: String) {
        self.operation = operation
        self.source = source
        self.errorNumber = errorNumber
        self.reason = reason
    }

    /// Creates an error whose reason is the system's text for `errorNumber` (`strerror`).
    public init(_ operation: Operation, source: String, errorNumber: Int32) {
        self.init(operation, source: source, errorNumber: errorNumber, reason: Self.systemMessage(errorNumber))
    }

    /// For example `cannot connect to 127.0.0.1:1: Connection refused`.
    public var description: String {
        let verb =
            switch operation {
            case .resolve: "resolve"
            case .connect: "connect to"
            case .open: "open"
            case .configure: "configure"
            case .read: "read from"
            case .write: "write to"
            }
        return "cannot \(verb) \(source): \(reason)"
    }

    /// The system's text for an `errno` value.
    package static func systemMessage(_ errorNumber: Int32) -> String {
        System.errorMessage(errorNumber)
    }
}
