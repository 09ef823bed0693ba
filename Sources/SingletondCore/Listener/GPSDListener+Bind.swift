import Glibc
import SingletonRegistry
import SystemCalls

extension ConnectionServer where Served == GPSDListenerHandler {
    /// Creates a TCP socket bound to `address` and listening; call ``start()`` to serve.
    ///
    /// - Throws: ``SingletondStartError`` naming the address and the system's reason (the port is taken, the address
    ///   is not this host's).
    package static func bind(
        _ address: ListenAddress, devicePath: String, serialSpeed: Int? = nil, limits: ClientLimits = ClientLimits(),
        logger: LogWriter, clock: any Clock<Duration>
    ) throws(SingletondStartError) -> GPSDListener {
        func failure(_ what: String, _ error: Errno) -> SingletondStartError {
            SingletondStartError("gpsd listener: \(what) \(address): \(error)")
        }
        let fd: Int32
        do throws(Errno) {
            fd = try System.socket(
                family: AF_INET, type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), protocol: 0)
        } catch {
            throw failure("cannot create a socket for", error)
        }
        System.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, 1)
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        let octets = address.octets.map(UInt32.init)
        socketAddress.sin_addr.s_addr = (octets[0] << 24 | octets[1] << 16 | octets[2] << 8 | octets[3]).bigEndian
        do throws(Errno) {
            try withUnsafePointer(to: &socketAddress) { (pointer) throws(Errno) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (raw) throws(Errno) in
                    try System.bind(fd, to: raw, length: socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            try System.listen(fd, backlog: 64)
        } catch {
            System.close(fd)
            throw failure("cannot listen on", error)
        }
        System.setNonBlocking(fd)
        let wake = WakePipe()
        guard wake.readEnd >= 0 else {
            System.close(fd)
            throw failure("cannot create a pipe for", Errno(code: wake.creationError))
        }
        return GPSDListener(
            handler: GPSDListenerHandler(
                address: address, devicePath: devicePath, serialSpeed: serialSpeed, limits: limits),
            shared: GPSDListenerHandler.Shared(), listenFD: fd, wake: wake, logger: logger, clock: clock)
    }
}
