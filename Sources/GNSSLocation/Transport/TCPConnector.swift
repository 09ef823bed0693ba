import Glibc

/// Non-blocking TCP connection, trying every address a name resolves to, each for at most the timeout.
///
/// The kernel times each attempt (`poll(2)`'s timeout): nothing here reads a clock, so the registry's clock stays
/// the only one the location code decides by.
enum TCPConnector {
    static func connect(host: String, port: UInt16, timeout: Duration) throws(SourceError) -> Int32 {
        let name = ByteSource.tcp(host: host, port: port).description
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            if status == EAI_SYSTEM { throw SourceError(.resolve, source: host, errorNumber: errno) }
            throw SourceError(.resolve, source: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var lastError = SourceError(.connect, source: name, errorNumber: EADDRNOTAVAIL)
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let fd = socket(
                address.pointee.ai_family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue),
                address.pointee.ai_protocol)
            guard fd >= 0 else {
                lastError = SourceError(.connect, source: name, errorNumber: errno)
                continue
            }
            if let failure = attempt(fd, address.pointee, timeout: timeout, name: name) {
                Glibc.close(fd)
                lastError = failure
                if failure.errorNumber == ETIMEDOUT { break }
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            _ = setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<Int32>.size))
            return fd
        }
        throw lastError
    }

    /// Connects `fd` to one address; `nil` on success.
    private static func attempt(
        _ fd: Int32, _ address: addrinfo, timeout: Duration, name: String
    ) -> SourceError? {
        if Glibc.connect(fd, address.ai_addr, address.ai_addrlen) == 0 { return nil }
        guard errno == EINPROGRESS || errno == EINTR else {
            return SourceError(.connect, source: name, errorNumber: errno)
        }
        while true {
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&pfd, 1, PollTimeout.milliseconds(timeout))
            if ready < 0 {
                // Interrupted: wait again (the threads that connect block the signals the daemon handles).
                if errno == EINTR { continue }
                return SourceError(.connect, source: name, errorNumber: errno)
            }
            if ready == 0 {
                return SourceError(.connect, source: name, errorNumber: ETIMEDOUT, reason: "timed out after \(timeout)")
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else {
                return SourceError(.connect, source: name, errorNumber: errno)
            }
            return code == 0 ? nil : SourceError(.connect, source: name, errorNumber: code)
        }
    }
}
